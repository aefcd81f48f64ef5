import { createServer } from "node:net";
import { pino, type Logger } from "pino";
import {
  Role,
  TaskState,
  type Message,
  type Part,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { removeInbox, writeInbox } from "../../../src/workspace/inbox.js";
import { textPart } from "../../../src/contract/messages.js";
import type { Inbox } from "../../../src/a2a/task/environment.js";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import {
  defaultQueryFactory,
  type QueryFactory,
  type QueryHandle,
} from "../../../src/claude/index.js";
import { resolveConfig } from "../../../src/config/load.js";
import type { Config, ConfigInput } from "../../../src/config/schema.js";
import { startServer, type RunningServer } from "../../../src/app/server.js";
import type { Clock } from "../../../src/common/timers.js";
import type { Tracing } from "../../../src/tracing/tracing.js";
import { startTestBench, TEST_MODEL, type TestBench } from "../bench.js";
import type { Rule } from "../fake-model/index.js";

/** A free TCP port on loopback (the card must advertise the real port, so 0 will not do). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const address = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

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
  /** Wraps the real inbox writer (e.g. to hold an attachment's write). */
  readonly inbox?: (real: Inbox) => Inbox;
  /** The wall clock of per-caller limits (kept across `restart()`). */
  readonly clock?: Clock;
  /** Tracing for each server started (a function: a stopped server shuts its tracing down). */
  readonly tracing?: () => Tracing;
  /** How the A2A client fetches (e.g. to add a header to every request). */
  readonly fetchImpl?: typeof fetch;
  /** The server's logger (default: silent, or TEST_LOG_LEVEL). */
  readonly logger?: Logger;
  /** Runs in the workspace before the first server starts (e.g. `git init` it). */
  readonly beforeStart?: (cwd: string) => Promise<void>;
}

/**
 * Our server (in this process) + the scripted model + the REAL Claude Code runtime, driven through
 * the official A2A client over HTTP on 127.0.0.1.
 */
export async function startA2AHarness(options: HarnessOptions = {}): Promise<A2AHarness> {
  const bench = await startTestBench(options.rules ?? []);
  const port = await freePort();
  const input: ConfigInput = {
    ...options.config,
    server: { ...options.config?.server },
    // No spare process unless the test is about them: `spawns()` counts what each test says.
    sessions: { spares: 0, ...options.config?.sessions },
    claude: {
      model: TEST_MODEL,
      settingSources: [],
      permissionMode: "acceptEdits",
      ...options.config?.claude,
    },
  };
  const config = resolveConfig(input, {
    file: "<test config>",
    startDir: bench.sandbox.cwd,
    overrides: { port, cwd: bench.sandbox.cwd },
  });
  let spawned = 0;
  const permissionRequests: PermissionRequest[] = [];
  const frames: SDKMessage[] = [];
  const queryFactory: QueryFactory = (params) => {
    spawned++;
    const canUseTool = params.options.canUseTool;
    if (canUseTool === undefined) return recording(defaultQueryFactory(params), frames);
    const handle = defaultQueryFactory({
      ...params,
      options: {
        ...params.options,
        canUseTool: (toolName, input, opts) => {
          permissionRequests.push({ toolName, input });
          return canUseTool(toolName, input, opts);
        },
      },
    });
    return recording(handle, frames);
  };
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const inbox = options.inbox?.({ write: writeInbox, remove: removeInbox });
  const start = async () => {
    const server = await startServer({
      config,
      logger,
      claudeEnv: bench.sandbox.env,
      sdkOptions: { stderr: (d) => bench.stderr.push(d) },
      queryFactory,
      ...(inbox && { inbox }),
      ...(options.clock && { clock: options.clock }),
      ...(options.tracing && { tracing: options.tracing() }),
    });
    const client = await clientFor(server.url, options.fetchImpl);
    return { server, client };
  };
  await options.beforeStart?.(bench.sandbox.cwd);
  const first = await start();
  const harness: A2AHarness = {
    bench,
    config,
    server: first.server,
    client: first.client,
    spawns: () => spawned,
    permissionRequests,
    frames,
    async restart() {
      await harness.server.close();
      const next = await start();
      harness.server = next.server;
      harness.client = next.client;
    },
    async close() {
      await harness.server.close();
      await bench.close();
    },
  };
  return harness;
}

/** `handle`, recording each message it yields into `frames`. */
function recording(handle: QueryHandle, frames: SDKMessage[]): QueryHandle {
  return {
    next: async () => {
      const step = await handle.next();
      if (step.done !== true) frames.push(step.value);
      return step;
    },
    interrupt: () => handle.interrupt(),
    stopTask: (taskId) => handle.stopTask(taskId),
    setModel: (model) => handle.setModel(model),
    applyFlagSettings: (settings) => handle.applyFlagSettings(settings),
    close: () => handle.close(),
  };
}

/** The official client of the agent at `url`, fetching with `fetchImpl` when given. */
function clientFor(url: string, fetchImpl: typeof fetch | undefined): Promise<Client> {
  if (fetchImpl === undefined) return new ClientFactory().createFromUrl(url);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [
      new JsonRpcTransportFactory({ fetchImpl }),
      new RestTransportFactory({ fetchImpl }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(url);
}

/** A text part, as the server builds them. */
export { textPart };

export function userMessage(
  parts: Part[] | string,
  ids: { taskId?: string; contextId?: string } = {},
): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: typeof parts === "string" ? [textPart(parts)] : parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** ListTasks of one context, every state, newest first, with `historyLength` messages each. */
export const listRequest = (contextId: string, historyLength = 0) => ({
  tenant: "",
  contextId,
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: 50,
  pageToken: "",
  historyLength,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
});

export function sendRequest(message: Message): SendMessageRequest {
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** Blocking SendMessage that must return a task. */
export async function sendForTask(client: Client, message: Message): Promise<Task> {
  const result = await client.sendMessage(sendRequest(message));
  if (!("id" in result) || !("status" in result)) throw new Error("expected a task, got a message");
  return result;
}

/** Collects a whole stream. */
export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** The text of text parts, joined. */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("");
}

export const messageText = (message: Message | undefined): string => partsText(message?.parts);

/** A compact, assertable view of a stream: one line per event. */
export function describeStream(events: readonly StreamResponse[]): string[] {
  return events.map((e) => {
    const p = e.payload;
    switch (p?.$case) {
      case "task":
        return `task:${stateName(p.value.status?.state)}`;
      case "message":
        return "message";
      case "statusUpdate": {
        const kind = (p.value.status?.message?.metadata as { kind?: string } | undefined)?.kind;
        return `status:${stateName(p.value.status?.state)}${kind ? `:${kind}` : ""}`;
      }
      case "artifactUpdate":
        return `artifact:${(p.value.artifact?.metadata as { kind?: string } | undefined)?.kind ?? "?"}`;
      case undefined:
        return "empty";
    }
  });
}

export function stateName(state: number | undefined): string {
  const names: Record<number, string> = {
    1: "submitted",
    2: "working",
    3: "completed",
    4: "failed",
    5: "canceled",
    6: "input-required",
    7: "rejected",
    8: "auth-required",
  };
  return state === undefined ? "none" : (names[state] ?? String(state));
}
