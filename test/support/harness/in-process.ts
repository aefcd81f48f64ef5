/**
 * Our server in this process + the scripted model + the REAL Claude Code runtime, driven through
 * the official A2A client over HTTP on 127.0.0.1.
 */
import type { Logger } from "pino";
import { pino } from "pino";
import type { Message, Part, StreamResponse, Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { removeInboxFolder, writeInbox } from "../../../src/workspace/inbox.js";
import type { Inbox } from "../../../src/a2a/task/environment.js";
import { defaultQueryFactory, type QueryFactory } from "../../../src/claude/index.js";
import { resolveConfig } from "../../../src/config/load.js";
import type { Config, ConfigInput } from "../../../src/config/schema.js";
import { startServer, type RunningServer } from "../../../src/app/server.js";
import type { Clock } from "../../../src/common/timers.js";
import type { Tracing } from "../../../src/tracing/tracing.js";
import { startTestBench, type TestBench } from "../bench.js";
import { a2aClient, type ClientOptions } from "./clients.js";
import { sendForTask, streamMessage, userMessage, watchMessage } from "./messages.js";
import type { Rule } from "./model.js";
import { freePort } from "./ports.js";
import { recording } from "./recording.js";
import { closeServed } from "./served.js";
import { testConfig } from "./test-config.js";

export { testConfig };

type Ids = { taskId?: string; contextId?: string };

export interface A2AHarness {
  readonly bench: TestBench;
  readonly config: Config;
  server: RunningServer;
  client: Client;
  /** Claude Code processes spawned so far (the query factory seam, counted). */
  readonly spawns: () => number;
  /**
   * The permission requests the runtime made so far (its `canUseTool` calls), in order: what the
   * server was asked, whether or not it showed it yet.
   */
  readonly permissionRequests: readonly PermissionRequest[];
  /** Every SDK message the server's sessions read so far (e.g. `system/init`), in order. */
  readonly frames: readonly SDKMessage[];
  /** `127.0.0.1:<port>` of the gRPC binding, when `grpc` was asked for. */
  readonly grpcAddress: string | undefined;
  /** Blocking SendMessage of `parts` (or a whole message) on `client`; must return a task. */
  send(parts: Part[] | string | Message, ids?: Ids): Promise<Task>;
  /** Streaming SendMessage of `parts` on `client`, every event collected. */
  stream(parts: Part[] | string, ids?: Ids): Promise<StreamResponse[]>;
  /** Streaming SendMessage of `parts` on `client`, read in the background (`first`, `done`). */
  watch(parts: Part[] | string, ids?: Ids): ReturnType<typeof watchMessage>;
  /** Another official client of this server (a binding, a token, a fetch). */
  connect(options?: ClientOptions): Promise<Client>;
  /**
   * For a server shared by the tests of a file: the model's script replaced, and what was recorded
   * so far (model requests, frames, permission requests, the spawn count) cleared.
   */
  reset(rules?: readonly Rule[]): void;
  /** Stops the server and starts a new one on the same workspace, port and session file. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface PermissionRequest {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
}

export interface HarnessOptions {
  readonly rules?: readonly Rule[];
  /** Merged into the test defaults (model, settingSources [], acceptEdits). */
  readonly config?: ConfigInput;
  /** Also serve the gRPC binding, on a free port (`grpcAddress`). */
  readonly grpc?: boolean;
  /** Wraps the real inbox writer (e.g. to hold an attachment's write). */
  readonly inbox?: (real: Inbox) => Inbox;
  /**
   * Wraps the real query factory (e.g. to act just before one of the server's hooks runs, as a
   * background command could at that moment).
   */
  readonly queryFactory?: (real: QueryFactory) => QueryFactory;
  /** The wall clock of per-caller limits (kept across `restart()`). */
  readonly clock?: Clock;
  /** Tracing for each server started (a function: a stopped server shuts its tracing down). */
  readonly tracing?: () => Tracing;
  /** How the A2A client fetches (e.g. to add a header to every request). */
  readonly fetchImpl?: typeof fetch;
  /** The binding and credentials of `client` (default: the card's first binding, no token). */
  readonly client?: ClientOptions;
  /** The server's logger (default: silent, or TEST_LOG_LEVEL). */
  readonly logger?: Logger;
  /** Runs in the workspace before the first server starts (e.g. `git init` it). */
  readonly beforeStart?: (cwd: string) => Promise<void>;
  /**
   * Variables the server's own environment holds beside the runtime's (a token it must keep
   * from Claude): added to the environment the server hands its Claude Code children.
   */
  readonly serverEnv?: Readonly<Record<string, string>>;
}

export async function startA2AHarness(options: HarnessOptions = {}): Promise<A2AHarness> {
  const bench = await startTestBench(options.rules ?? []);
  const port = await freePort();
  const grpcPort = options.grpc === true ? await freePort() : undefined;
  const given = options.config ?? {};
  const input = testConfig(
    grpcPort === undefined
      ? given
      : { ...given, server: { ...given.server, grpc: { port: grpcPort } } },
  );
  const config = resolveConfig(input, {
    file: "<test config>",
    startDir: bench.sandbox.cwd,
    overrides: { port, cwd: bench.sandbox.cwd },
  });
  const seen = observedQueries();
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const inbox = options.inbox?.({ write: writeInbox, remove: removeInboxFolder });
  const clientOptions: ClientOptions = {
    ...(options.fetchImpl && { fetchImpl: options.fetchImpl }),
    ...options.client,
  };
  const start = async () => {
    const server = await startServer({
      config,
      logger,
      claudeEnv: { ...bench.sandbox.env, ...options.serverEnv },
      sdkOptions: { stderr: (d) => bench.stderr.push(d) },
      queryFactory: options.queryFactory?.(seen.queryFactory) ?? seen.queryFactory,
      ...(inbox && { inbox }),
      ...(options.clock && { clock: options.clock }),
      ...(options.tracing && { tracing: options.tracing() }),
    });
    try {
      return { server, client: await a2aClient(server.url, clientOptions) };
    } catch (err) {
      await server.close();
      throw err;
    }
  };
  await options.beforeStart?.(bench.sandbox.cwd);
  const first = await start().catch(async (err: unknown) => {
    await bench.close();
    throw err;
  });
  const harness: A2AHarness = {
    bench,
    config,
    server: first.server,
    client: first.client,
    grpcAddress: grpcPort === undefined ? undefined : `127.0.0.1:${grpcPort}`,
    spawns: () => seen.spawns,
    permissionRequests: seen.permissionRequests,
    frames: seen.frames,
    send: (parts, ids) =>
      sendForTask(
        harness.client,
        typeof parts === "object" && "messageId" in parts ? parts : userMessage(parts, ids),
      ),
    stream: (parts, ids) => streamMessage(harness.client, parts, ids),
    watch: (parts, ids) => watchMessage(harness.client, parts, ids),
    connect: (o = {}) => a2aClient(harness.server.url, o),
    reset(rules = []) {
      bench.model.setRules(rules);
      bench.model.requests.length = 0;
      bench.model.unmatched.length = 0;
      seen.frames.length = 0;
      seen.permissionRequests.length = 0;
      seen.spawns = 0;
    },
    async restart() {
      await harness.server.close();
      const next = await start();
      harness.server = next.server;
      harness.client = next.client;
    },
    close: () => closeServed(harness.server, bench),
  };
  return harness;
}

/** The real query factory, counting spawns and recording permission requests and frames. */
function observedQueries() {
  const seen = {
    spawns: 0,
    permissionRequests: [] as PermissionRequest[],
    frames: [] as SDKMessage[],
    queryFactory: ((params) => {
      seen.spawns++;
      const canUseTool = params.options.canUseTool;
      if (canUseTool === undefined) return recording(defaultQueryFactory(params), seen.frames);
      const handle = defaultQueryFactory({
        ...params,
        options: {
          ...params.options,
          canUseTool: (toolName, input, opts) => {
            seen.permissionRequests.push({ toolName, input });
            return canUseTool(toolName, input, opts);
          },
        },
      });
      return recording(handle, seen.frames);
    }) as QueryFactory,
  };
  return seen;
}
