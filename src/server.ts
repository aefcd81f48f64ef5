import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import {
  DefaultExecutionEventBusManager,
  InMemoryTaskStore,
  type TaskStore,
} from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { buildAgentCard } from "./a2a/card.js";
import { ClaudeAgentExecutor } from "./a2a/executor.js";
import { changedFilePath, FILE_TOOL_MATCHER, fileOperation } from "./a2a/file-artifacts.js";
import { GuardedRequestHandler } from "./a2a/guarded-request-handler.js";
import { ClaudeSession, type QueryFactory } from "./claude/index.js";
import type { Config } from "./config/schema.js";
import { createHttpApp } from "./http/app.js";
import { SessionPool, type SessionFactoryArgs } from "./sessions/pool.js";
import { SessionMap } from "./store/session-map.js";
import { packageVersion } from "./version.js";

export interface ServerOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The Claude Code child's whole environment (the SDK replaces, never merges). Default: inherit. */
  readonly claudeEnv?: Record<string, string>;
  /** Extra Agent SDK options (e.g. `pathToClaudeCodeExecutable`, `stderr`). */
  readonly sdkOptions?: Partial<Options>;
  readonly queryFactory?: QueryFactory;
  readonly taskStore?: TaskStore;
}

export interface RunningServer {
  /** Base URL the server listens on (not the advertised publicUrl). */
  readonly url: string;
  readonly port: number;
  readonly pool: SessionPool;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export class StartupError extends Error {}

/** Refuses to expose an unauthenticated agent beyond loopback unless the operator says so. */
export function checkBindSafety(server: Config["server"]): void {
  if (LOOPBACK.test(server.host)) return;
  if ((server.allowedLogins?.length ?? 0) > 0 || server.allowUnauthenticatedRemote) return;
  throw new StartupError(
    `Refusing to listen on ${server.host}: this server has no authentication of its own, so anyone ` +
      `who can reach that address could drive Claude Code in your workspace. Keep server.host on ` +
      `127.0.0.1 (e.g. behind "tailscale serve"), set server.allowedLogins, or set ` +
      `server.allowUnauthenticatedRemote to true if an authenticating proxy is in front.`,
  );
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const { config, logger } = o;
  checkBindSafety(config.server);
  const cwd = config.claude.cwd;
  const sessionMap = await SessionMap.open({ cwd, logger });

  // Sessions report to the executor, which needs the pool that creates them: the closures below
  // read `executor` only when a session calls them, and sessions exist only through the executor.
  const createSession = ({ contextId, resume }: SessionFactoryArgs): ClaudeSession =>
    new ClaudeSession({
      cwd,
      ...(config.claude.model !== undefined && { model: config.claude.model }),
      permissionMode: config.claude.permissionMode,
      ...(config.claude.allowedTools && { allowedTools: config.claude.allowedTools }),
      ...(config.claude.disallowedTools && { disallowedTools: config.claude.disallowedTools }),
      settingSources: config.claude.settingSources,
      ...(config.claude.maxTurns !== undefined && { maxTurns: config.claude.maxTurns }),
      ...(resume !== undefined && { resume }),
      ...(o.claudeEnv && { env: o.claudeEnv }),
      ...(o.sdkOptions && { sdkOptions: o.sdkOptions }),
      ...(o.queryFactory && { queryFactory: o.queryFactory }),
      logger: logger.child({ contextId }),
      canUseTool: (toolName, input, options) =>
        executor.canUseTool(contextId, toolName, input, options),
      hooks: {
        PostToolUse: [
          {
            matcher: FILE_TOOL_MATCHER,
            hooks: [
              async (input) => {
                if (input.hook_event_name !== "PostToolUse") return {};
                const path = changedFilePath(input.tool_name, input.tool_input);
                if (path === undefined) return {};
                await executor.onFileChanged(contextId, {
                  cwd,
                  path,
                  toolName: input.tool_name,
                  operation: fileOperation(input.tool_name, input.tool_response),
                  maxBytes: config.artifacts.maxFileBytes,
                });
                return {};
              },
            ],
          },
        ],
      },
    });
  const pool = new SessionPool({
    sessionMap,
    createSession,
    idleTimeoutMs: config.sessions.idleTimeoutMs,
    maxLive: config.sessions.maxLive,
    logger: logger.child({ component: "sessions" }),
  });
  const taskStore = o.taskStore ?? new InMemoryTaskStore();
  const busManager = new DefaultExecutionEventBusManager();
  const executor = new ClaudeAgentExecutor({
    pool,
    cwd,
    policy: {
      permissionPrompts: config.claude.permissionPrompts,
      maxPermissionDenials: config.claude.maxPermissionDenials,
      inputTimeoutMs: config.claude.inputTimeoutMs,
    },
    taskStore,
    busManager,
    logger: logger.child({ component: "a2a" }),
  });

  const card = buildAgentCard(config, { version: packageVersion() });
  const requestHandler = new GuardedRequestHandler(card, taskStore, executor, busManager);
  const app = createHttpApp({
    card,
    requestHandler,
    bodyLimit: config.server.bodyLimit,
    allowedLogins: config.server.allowedLogins,
    logger: logger.child({ component: "http" }),
  });

  const wanted = config.server.port;
  const http: Server = app.listen(wanted, config.server.host);
  await new Promise<void>((resolve, reject) => {
    http.once("listening", resolve);
    http.once("error", (err) =>
      reject(new StartupError(`Cannot listen on ${config.server.host}:${wanted}: ${err.message}`)),
    );
  });
  const { port } = http.address() as AddressInfo;
  const host = config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  logger.info({ url, publicUrl: config.server.publicUrl, cwd }, "claude-a2a listening");

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    pool,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        await pool.closeAll();
        await stopped;
        await sessionMap.flush();
      })()),
  };
}
