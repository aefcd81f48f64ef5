import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import {
  changedFilePath,
  FILE_TOOL_MATCHER,
  fileOperation,
} from "../a2a/content/file-artifacts.js";
import type { ClaudeAgentExecutor } from "../a2a/routing/executor.js";
import { ClaudeSession, type ClaudeSessionOptions, type QueryFactory } from "../claude/index.js";
import type { Config } from "../config/schema.js";
import { secretVariables, withoutVariables } from "../config/security-schema.js";
import { deliverySecretVariables } from "../config/delivery-schema.js";
import { parseConversationKey, type ConversationKey } from "../identity/conversation.js";
import type { SessionFactoryArgs } from "../sessions/pool.js";
import type { passthroughOptions } from "../sessions/session-options.js";
import type { DelegatingTask } from "../a2a/task/task-delegation.js";
import type { Peer } from "../peers/peer-client.js";
import { a2aMcpServer, A2A_SERVER, A2A_TOOL_NAMES } from "../peers/tools.js";
import type { PoolSparesOptions } from "../sessions/pool-spares.js";
import type { SpareHandle } from "../sessions/spare-sessions.js";
import { fingerprintOf, settingsFiles, watchFiles } from "../workspace/settings-files.js";
import { workspaceConfig } from "../config/workspaces.js";
import type { WorkspaceBoundary } from "../sandbox/workspace-boundary.js";
import { processBoundary } from "./boundary-options.js";

type ChildEnv = Record<string, string | undefined>;

/**
 * The Claude Code child's environment: the server's own secrets stay out of it (a caller could
 * ask Claude to print them), a delivery's tokens included; with none configured, the children
 * inherit exactly as before.
 */
export function claudeEnvironment(
  config: Config,
  inherited: Record<string, string> | undefined,
  /** Other workspaces' secrets (served-agents.ts): one workspace's Claude never gets another's. */
  othersSecrets: readonly string[] = [],
): ChildEnv | undefined {
  const secrets = [...serverSecretVariables(config), ...othersSecrets];
  if (secrets.length === 0) return inherited;
  return withoutVariables<ChildEnv>(inherited ?? process.env, secrets);
}

/** The variables holding a workspace's own secrets: kept out of every Claude Code process. */
export function serverSecretVariables(config: Config): string[] {
  return [...secretVariables(config), ...deliverySecretVariables(config.claude.delivery)];
}

/** Every workspace's secret variables (docs/workspaces.md): each is out of every workspace's Claude. */
export function everyWorkspaceSecret(config: Config): string[] {
  return config.workspaces.flatMap((spec, i) =>
    serverSecretVariables(workspaceConfig(config, spec, i === 0)),
  );
}

export interface SessionWiring {
  readonly config: Config;
  readonly logger: Logger;
  /** Where a conversation's process works: the workspace, or its worktree. */
  readonly cwdOf: (key?: string) => string;
  /** The Claude Code options the config passes through, the same for every session. */
  readonly passthrough: ReturnType<typeof passthroughOptions>;
  /** The SDK's `sandbox` option of every process (`claude.sandbox`, its preset expanded). */
  readonly sandbox?: Options["sandbox"];
  /** The boundary around every process when the sandbox is on (docs/sandbox.md). */
  readonly boundary?: WorkspaceBoundary;
  readonly claudeEnv?: ChildEnv;
  readonly sdkOptions?: Partial<Options>;
  /** Claude Code's file checkpoints (`enableFileCheckpointing`): rewind without worktrees. */
  readonly checkpoints?: boolean;
  readonly queryFactory?: QueryFactory;
  /** The executor, read only when a session calls it (sessions exist only through it). */
  readonly executor: () => ClaudeAgentExecutor;
  /** The workspace's peers (`peers`, docs/peers.md); none: no `a2a` tools. */
  readonly peers?: ReadonlyMap<string, Peer>;
  /** The task owning a run, as a delegated call sees it. */
  readonly delegatingTask?: (runId: string | undefined) => DelegatingTask | undefined;
}

/**
 * Which `a2a` tools a process gets allowed by default (docs/peers.md "Tools"): none without
 * peers; with them, each one `claude.disallowedTools` does not name (by the tool's name, or the
 * server's, `mcp__a2a` or `mcp__a2a__*`, Claude Code's rule forms for MCP tools). A disallowed
 * tool is also passed on to the runtime, which takes it away from Claude. Pure.
 */
export function allowedA2ATools(peerCount: number, disallowed: readonly string[] = []): string[] {
  if (peerCount === 0) return [];
  const server = `mcp__${A2A_SERVER}`;
  if (disallowed.includes(server) || disallowed.includes(`${server}__*`)) return [];
  return A2A_TOOL_NAMES.filter((name) => !disallowed.includes(name));
}

/**
 * The `a2a` MCP server of one process and its tools allowed by default (`allowedA2ATools`),
 * only where peers are configured. Allowed, a call never prompts; a deny or ask rule of Claude
 * Code's own settings still applies, as to any tool.
 */
function peerTools(
  w: SessionWiring,
  cwd: string,
  session: () => ClaudeSession,
): Pick<ClaudeSessionOptions, "mcpServers" | "allowedTools"> {
  const { peers, delegatingTask } = w;
  const allowed = allowedA2ATools(peers?.size ?? 0, w.config.claude.disallowedTools);
  // No peer, or every tool disallowed: no server at all.
  if (peers === undefined || allowed.length === 0 || delegatingTask === undefined) return {};
  const server = a2aMcpServer({
    peers,
    config: w.config.peers,
    cwd,
    taskOf: async (toolUseId, signal) =>
      delegatingTask(await session().runOfToolUse(toolUseId, signal)),
  });
  return {
    mcpServers: { ...w.passthrough.mcpServers, [A2A_SERVER]: server },
    allowedTools: [...(w.config.claude.allowedTools ?? []), ...allowed],
  };
}

/**
 * `sessions.spares` as the pool keeps them: sessions from `spareFactory`, started in `site`,
 * recycled when the settings and memory files of the folder they run in change.
 */
export function poolSpares(
  w: SessionWiring,
  o: Pick<PoolSparesOptions, "site" | "onChange">,
): PoolSparesOptions {
  const files = (cwd: string) => settingsFiles(cwd, w.claudeEnv ?? process.env);
  return {
    wanted: w.config.sessions.spares,
    maxIdleMs: w.config.sessions.spareIdleMs,
    create: spareFactory(w),
    cwdOf: w.cwdOf,
    fingerprint: (cwd) => fingerprintOf(files(cwd)),
    watch: (cwd, changed) => watchFiles(files(cwd), changed),
    ...o,
  };
}

/** Who a session serves: known at once, or (a spare) once a new conversation takes it. */
type Owner = () => ConversationKey | undefined;

/**
 * How the pool makes a conversation's ClaudeSession: the config's Claude options, the resume
 * point, and the three ways a session reaches the A2A side, each through the executor: its
 * permission requests, its file changes (PostToolUse), its events (background work, wakes).
 * What a session gets at spawn (a sandbox, a spare process's options) is added here.
 */
export function sessionFactory(w: SessionWiring): (args: SessionFactoryArgs) => ClaudeSession {
  return ({ key, ...resume }) => buildSession(w, () => key, w.cwdOf(key), resume);
}

/**
 * How `sessions.spares` get their sessions: the same options as every conversation's, in
 * `cwd`, for the conversation that will take one (`bind`). Its callbacks ask whose it is when
 * they run; before it is taken no turn runs in it, so nothing calls them.
 */
export function spareFactory(w: SessionWiring): (cwd: string) => SpareHandle {
  return (cwd) => {
    let bound: ConversationKey | undefined;
    const session = buildSession(w, () => bound, cwd);
    return {
      session,
      bind: (key) => {
        bound = key;
      },
    };
  };
}

function buildSession(
  w: SessionWiring,
  owner: Owner,
  sessionCwd: string,
  { resume, resumeAt, fork }: Omit<Partial<SessionFactoryArgs>, "key"> = {},
): ClaudeSession {
  const { claude } = w.config;
  const known = owner();
  const conversation = known === undefined ? undefined : parseConversationKey(known);
  const sdkOptions = {
    ...w.sdkOptions,
    ...(resumeAt !== undefined && { resumeSessionAt: resumeAt }),
    // A rewind or fork on a shared workspace needs the runtime's own file checkpoints.
    ...(w.checkpoints === true && { enableFileCheckpointing: true }),
    ...(fork === true && { forkSession: true }),
  };
  const key = (): ConversationKey => {
    const bound = owner();
    if (bound === undefined) throw new Error("a spare session has no conversation yet");
    return bound;
  };
  const boundary =
    w.boundary &&
    processBoundary(w.boundary, {
      settingSources: claude.settingSources,
      cwd: sessionCwd,
      sdkOptions,
      env: w.passthrough.env ?? w.claudeEnv ?? process.env,
      session: () => session,
      owner: () => {
        const bound = owner();
        return bound === undefined ? undefined : parseConversationKey(bound)?.owner;
      },
    });
  const session: ClaudeSession = new ClaudeSession({
    cwd: sessionCwd,
    ...(claude.model !== undefined && { model: claude.model }),
    permissionMode: claude.permissionMode,
    ...(claude.allowedTools && { allowedTools: claude.allowedTools }),
    ...(claude.disallowedTools && { disallowedTools: claude.disallowedTools }),
    settingSources: claude.settingSources,
    ...(claude.maxTurns !== undefined && { maxTurns: claude.maxTurns }),
    ...(resume !== undefined && { resume }),
    ...(w.claudeEnv && { env: w.claudeEnv }),
    ...w.passthrough,
    ...peerTools(w, sessionCwd, () => session),
    // Every process of the workspace: new, resumed, spare, and whatever wakes in it later.
    ...(w.sandbox && { sandbox: w.sandbox }),
    ...(Object.keys(sdkOptions).length > 0 && { sdkOptions }),
    ...(w.queryFactory && { queryFactory: w.queryFactory }),
    // Last: what the boundary takes away (settings, environment) no option above gives back.
    ...boundary?.options,
    logger: w.logger.child(
      known === undefined
        ? { spare: true }
        : conversation
          ? { contextId: conversation.contextId, owner: conversation.owner }
          : { conversation: known },
    ),
    canUseTool: (toolName, input, options) => {
      // Under the boundary a request that would widen the sandbox never reaches the caller.
      const refused = boundary?.refuseWidening(toolName, input, options.toolUseID);
      if (refused) return Promise.resolve(refused);
      return w.executor().canUseTool(key(), toolName, input, options);
    },
    hooks: {
      ...(boundary && { PreToolUse: [boundary.guard] }),
      PostToolUse: [
        {
          matcher: FILE_TOOL_MATCHER,
          hooks: [
            async (input, _toolUseId, { signal }) => {
              if (input.hook_event_name !== "PostToolUse") return {};
              const path = changedFilePath(input.tool_name, input.tool_input);
              if (path === undefined) return {};
              // The change belongs to the run that made the tool call, whoever holds the context.
              const runId = await session.runOfToolUse(input.tool_use_id, signal);
              await w.executor().onFileChanged(key(), runId, {
                cwd: sessionCwd,
                path,
                toolName: input.tool_name,
                operation: fileOperation(input.tool_name, input.tool_response),
                maxBytes: w.config.artifacts.maxFileBytes,
              });
              return {};
            },
          ],
        },
      ],
    },
  });
  // Background work and wakes: the executor gives them to the task that owns them (a spare's
  // come once it is taken).
  session.subscribe((event) => {
    if (event.type === "closed") boundary?.cleanup();
    const bound = owner();
    if (bound !== undefined) w.executor().onSessionEvent(bound, session, event);
  });
  return session;
}
