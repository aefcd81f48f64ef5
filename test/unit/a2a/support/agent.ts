import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { pino } from "pino";
import { expect, vi } from "vitest";
import { perTest } from "../../../support/harness/scope.js";
import { removeInboxFolder, writeInbox } from "../../../../src/workspace/inbox.js";
import { userMessage } from "../../../support/harness/messages.js";
import type { Inbox } from "../../../../src/a2a/task/environment.js";
import { createAgent, type Agent } from "../../../../src/app/agent.js";
import { resolveConfig } from "../../../../src/config/load.js";
import type { ConfigInput } from "../../../../src/config/schema.js";
import type { Clock, Timers } from "../../../../src/common/timers.js";
import type { Tracing } from "../../../../src/tracing/tracing.js";
import { Gate, GatedInbox } from "../../../support/gated-inbox.js";
import { fakeQueryFactory, type FakeFactory } from "../../claude/support/scripted-query.js";

export { Gate, GatedInbox };

/** Time by hand: a timer fires when the test says so. */
export class ManualTimers implements Timers {
  private readonly pending = new Map<number, { fn: () => void; ms: number }>();
  private next = 0;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.next;
    this.pending.set(id, { fn, ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get armed(): number {
    return this.pending.size;
  }

  /** Fires every pending timer. */
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}

/**
 * A task store whose next matching load or save the test can hold (and then let through or
 * fail), to open the windows between the SDK's awaits deterministically.
 */
export class HoldableStore implements TaskStore {
  private readonly inner = new InMemoryTaskStore();
  private hold:
    | {
        op: "load" | "save";
        match: (task: Task | string) => boolean;
        gate: Gate;
        fail: boolean;
        after: boolean;
      }
    | undefined;
  private markHeld: (() => void) | undefined;

  /**
   * Holds the next `op` matching `match`; `held` resolves once a call is held. With `after`, the
   * operation is done first and its caller held afterwards: a load then returns what the store
   * held before the gate opened (a stale read, as a slower store would give).
   */
  holdNext(
    op: "load" | "save",
    match: (task: Task | string) => boolean,
    options: { fail?: boolean; after?: boolean } = {},
  ): { held: Promise<void>; gate: Gate } {
    const gate = new Gate();
    this.hold = { op, match, gate, fail: options.fail ?? false, after: options.after ?? false };
    const held = new Promise<void>((resolve) => (this.markHeld = resolve));
    return { held, gate };
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const hold = this.take("save", task);
    if (hold?.after) {
      await this.inner.save(task, context);
      return this.wait(hold);
    }
    if (hold) await this.wait(hold);
    return this.inner.save(task, context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const hold = this.take("load", taskId);
    if (hold?.after) {
      const task = await this.inner.load(taskId, context);
      await this.wait(hold);
      return task;
    }
    if (hold) await this.wait(hold);
    return this.inner.load(taskId, context);
  }

  list(...args: Parameters<TaskStore["list"]>): ReturnType<TaskStore["list"]> {
    return this.inner.list(...args);
  }

  private take(op: "load" | "save", subject: Task | string) {
    const hold = this.hold;
    if (hold === undefined || hold.op !== op || !hold.match(subject)) return undefined;
    this.hold = undefined;
    return hold;
  }

  private async wait(hold: NonNullable<HoldableStore["hold"]>): Promise<void> {
    this.markHeld?.();
    await hold.gate.opened;
    if (hold.fail) throw new Error(`store ${hold.op} failed (held by the test)`);
  }
}

/** Reads a stream in the background; a test waits for an event instead of sleeping. */
export class StreamReader {
  readonly events: StreamResponse[] = [];
  readonly done: Promise<unknown>;
  private waiters: (() => void)[] = [];

  constructor(stream: AsyncGenerator<StreamResponse, void, undefined>) {
    this.done = (async () => {
      try {
        for await (const event of stream) {
          this.events.push(event);
          this.wake();
        }
        return undefined;
      } catch (err) {
        return err;
      } finally {
        this.wake();
      }
    })();
  }

  /** Resolves with the first event (past or future) that satisfies `pred`. */
  async until(pred: (e: StreamResponse) => boolean, what = "event"): Promise<StreamResponse> {
    let ended = false;
    void this.done.then(() => (ended = true));
    for (;;) {
      const found = this.events.find(pred);
      if (found !== undefined) return found;
      if (ended) throw new Error(`stream ended without ${what}: ${this.describe().join(", ")}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
      await Promise.resolve();
    }
  }

  /** "task:SUBMITTED", "status:WORKING:tool_use", "artifact:<id>" … */
  describe(): string[] {
    return this.events.map(describeEvent);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

export function describeEvent(e: StreamResponse): string {
  const p = e.payload;
  switch (p?.$case) {
    case "task":
      return `task:${stateName(p.value.status?.state)}`;
    case "statusUpdate": {
      const kind: unknown = p.value.status?.message?.metadata?.kind;
      const base = `status:${stateName(p.value.status?.state)}`;
      return typeof kind === "string" ? `${base}:${kind}` : base;
    }
    case "artifactUpdate":
      return `artifact:${p.value.artifact?.artifactId}`;
    case "message":
      return "message";
    default:
      return "unknown";
  }
}

export const stateName = (s: TaskState | undefined) =>
  s === undefined ? "none" : TaskState[s].replace("TASK_STATE_", "");

export const isState = (state: TaskState) => (e: StreamResponse) =>
  (e.payload?.$case === "statusUpdate" && e.payload.value.status?.state === state) ||
  (e.payload?.$case === "task" && e.payload.value.status?.state === state);

export interface ScriptedAgent {
  readonly agent: Agent;
  readonly fake: FakeFactory;
  readonly timers: ManualTimers;
  readonly store: HoldableStore;
  readonly dir: string;
  readonly context: ServerCallContext;
  /** Streams a message (a new task, or an answer with `taskId`). */
  send(text: string | Part[], ids?: { taskId?: string; contextId?: string }): StreamReader;
  /** Blocking SendMessage. */
  sendBlocking(text: string, ids: { taskId?: string; contextId?: string }): Promise<unknown>;
  cancel(taskId: string): Promise<Task>;
  stored(taskId: string): Promise<Task | undefined>;
  close(): Promise<void>;
}

/** A user message, as the e2e tests build theirs. */
export { userMessage };

/**
 * The whole server minus HTTP (`createAgent`, as production wires it), with the SDK seam
 * replaced by scripted queries, time by hand and a store the test can hold.
 */
export async function scriptedAgent(
  options: {
    config?: ConfigInput;
    inbox?: (real: Inbox) => Inbox;
    /** The wall clock of per-caller limits. */
    clock?: Clock;
    tracing?: Tracing;
  } = {},
): Promise<ScriptedAgent> {
  const dir = await mkdtemp(join(tmpdir(), "claude-a2a-unit-"));
  const fake = fakeQueryFactory();
  const timers = new ManualTimers();
  const store = new HoldableStore();
  const config = resolveConfig(
    {
      ...options.config,
      // No spare process: each scripted query is the one a test's conversation makes.
      sessions: { spares: 0, ...options.config?.sessions },
      claude: { permissionMode: "acceptEdits", ...options.config?.claude },
    },
    { file: "<unit test>", startDir: dir, overrides: { cwd: dir } },
  );
  const realInbox: Inbox = { write: writeInbox, remove: removeInboxFolder };
  const agent = await createAgent({
    config,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    queryFactory: fake.factory,
    taskStore: store,
    timers,
    ...(options.inbox && { inbox: options.inbox(realInbox) }),
    ...(options.clock && { clock: options.clock }),
    ...(options.tracing && { tracing: options.tracing }),
  });
  const context = new ServerCallContext();
  const handler = agent.requestHandler;
  const request = (content: string | Part[], ids: { taskId?: string; contextId?: string }) => ({
    tenant: "",
    message: userMessage(content, ids),
    configuration: undefined,
    metadata: undefined,
  });
  return {
    agent,
    fake,
    timers,
    store,
    dir,
    context,
    send: (content, ids = {}) =>
      new StreamReader(handler.sendMessageStream(request(content, ids), context)),
    sendBlocking: (content, ids) => handler.sendMessage(request(content, ids), context),
    cancel: (taskId) =>
      handler.cancelTask({ tenant: "", id: taskId, metadata: undefined }, context),
    stored: (taskId) => store.load(taskId, context),
    close: async () => {
      await agent.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `scriptedAgent(options)`, closed when the running test ends (call it inside a test). */
export const agent = async (
  options?: Parameters<typeof scriptedAgent>[0],
): Promise<ScriptedAgent> => perTest(await scriptedAgent(options));

/** The ids of a stream's first (task) event. */
export function idsOf(reader: StreamReader): { taskId: string; contextId: string } {
  const first = reader.events[0]?.payload;
  if (first?.$case !== "task") throw new Error(`no task event first: ${reader.describe().join()}`);
  return { taskId: first.value.id, contextId: first.value.contextId };
}

/** The uuid the runtime stamps on its answer to the session's `index`-th send. */
export async function sentStamp(agent: ScriptedAgent, index: number): Promise<string> {
  await vi.waitFor(() => expect(agent.fake.queries.length).toBeGreaterThan(0));
  return String((await agent.fake.query.sentMessage(index)).uuid);
}

/** A fresh agent (closed with the test) with `text` sent: the agent, the stream, its answer's stamp. */
export async function firstSend(
  text: string,
  options?: Parameters<typeof scriptedAgent>[0],
): Promise<[ScriptedAgent, StreamReader, string]> {
  const h = await agent(options);
  const run = h.send(text);
  return [h, run, await sentStamp(h, 0)];
}

/** The context's tasks, as ListTasks gives them to this test's caller. */
export async function contextTasks(agent: ScriptedAgent, contextId: string): Promise<Task[]> {
  const listed = await agent.agent.requestHandler.listTasks(
    {
      tenant: "",
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
      pageToken: "",
      historyLength: 5,
      statusTimestampAfter: undefined,
    },
    agent.context,
  );
  return listed.tasks;
}

/** Calls the runtime's `canUseTool` the way the SDK does on a control request. */
export function askPermission(
  fake: FakeFactory,
  toolUseId: string,
  toolName: string,
  input: Record<string, unknown>,
  signal = new AbortController().signal,
): Promise<PermissionResult | null> {
  const canUseTool = fake.query.options.canUseTool;
  if (canUseTool === undefined) throw new Error("the session has no canUseTool");
  return canUseTool(toolName, input, { signal, toolUseID: toolUseId, requestId: toolUseId });
}

/** Calls the session's PostToolUse hook the way the runtime does after a Write. */
export async function fileWritten(
  fake: FakeFactory,
  toolUseId: string,
  filePath: string,
): Promise<void> {
  const matchers = fake.query.options.hooks?.PostToolUse ?? [];
  for (const matcher of matchers) {
    for (const hook of matcher.hooks) {
      await hook(
        {
          hook_event_name: "PostToolUse",
          session_id: "s",
          transcript_path: "",
          cwd: "",
          tool_name: "Write",
          tool_input: { file_path: filePath, content: "x" },
          tool_response: { type: "create" },
          tool_use_id: toolUseId,
        },
        toolUseId,
        { signal: new AbortController().signal },
      );
    }
  }
}
