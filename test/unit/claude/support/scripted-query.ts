import type { Options, SDKMessage, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { QueryFactory, QueryHandle, QueryParams } from "../../../../src/claude/sdk.js";

type Switch = { model: string | undefined } | { effortLevel: unknown } | { permissionMode: string };

type Step =
  { kind: "message"; value: unknown } | { kind: "end" } | { kind: "throw"; error: unknown };

/**
 * A QueryHandle whose frames the test emits one by one. It refuses a second concurrent `next()`
 * (the provider must have a single consumer) and records sends, interrupts and closes.
 */
export class ScriptedQuery implements QueryHandle {
  readonly sent: SDKUserMessage[] = [];
  readonly stoppedTasks: string[] = [];
  /** Every `setModel` / `applyFlagSettings` / `setPermissionMode` call, in order. */
  readonly switches: Switch[] = [];
  /** Set: the next switch call rejects with it (once). */
  failNextSwitch: Error | undefined;
  interrupts = 0;
  closed = false;
  nextCalls = 0;
  /** Runs on interrupt(), e.g. to emit the runtime's teardown frames. */
  onInterrupt: (() => void) | undefined;
  private readonly steps: Step[] = [];
  private pendingNext: ((step: Step) => void) | undefined;
  private drainWaiters: (() => void)[] = [];
  private sendWaiters: (() => void)[] = [];

  constructor(readonly params: QueryParams) {
    void this.consumeInput(params.prompt);
  }

  get options(): Options {
    return this.params.options;
  }

  emit(...messages: unknown[]): void {
    for (const value of messages) this.push({ kind: "message", value });
  }

  end(): void {
    this.push({ kind: "end" });
  }

  fail(error: unknown): void {
    this.push({ kind: "throw", error });
  }

  /** Emits, then waits until the pump has handled everything and asks for more. */
  async feed(...messages: unknown[]): Promise<void> {
    this.emit(...messages);
    await this.drained();
  }

  drained(): Promise<void> {
    if (this.pendingNext !== undefined && this.steps.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Resolves with the n-th user message the session sent (0-based). */
  async sentMessage(index: number): Promise<SDKUserMessage> {
    while (this.sent.length <= index) {
      await new Promise<void>((resolve) => this.sendWaiters.push(resolve));
    }
    return this.sent[index] as SDKUserMessage;
  }

  next(): Promise<IteratorResult<SDKMessage, void>> {
    if (this.pendingNext !== undefined) throw new Error("concurrent next(): two consumers");
    this.nextCalls++;
    return new Promise((resolve, reject) => {
      const deliver = (step: Step) => {
        this.pendingNext = undefined;
        if (step.kind === "message") resolve({ value: step.value as SDKMessage, done: false });
        else if (step.kind === "end") resolve({ value: undefined, done: true });
        else reject(step.error instanceof Error ? step.error : new Error(String(step.error)));
      };
      const step = this.steps.shift();
      if (step !== undefined) {
        deliver(step);
        return;
      }
      this.pendingNext = deliver;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    });
  }

  interrupt(): Promise<unknown> {
    this.interrupts++;
    this.onInterrupt?.();
    return Promise.resolve({ still_queued: [] });
  }

  stopTask(taskId: string): Promise<void> {
    this.stoppedTasks.push(taskId);
    return Promise.resolve();
  }

  setModel(model?: string): Promise<void> {
    return this.switched({ model });
  }

  applyFlagSettings(settings: { effortLevel?: unknown }): Promise<void> {
    return this.switched({ effortLevel: settings.effortLevel });
  }

  setPermissionMode(mode: string): Promise<void> {
    return this.switched({ permissionMode: mode });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.end();
  }

  private switched(call: Switch): Promise<void> {
    const failure = this.failNextSwitch;
    this.failNextSwitch = undefined;
    if (failure !== undefined) return Promise.reject(failure);
    this.switches.push(call);
    return Promise.resolve();
  }

  private push(step: Step): void {
    const pending = this.pendingNext;
    if (pending !== undefined && this.steps.length === 0) pending(step);
    else this.steps.push(step);
  }

  private async consumeInput(prompt: AsyncIterable<SDKUserMessage>): Promise<void> {
    for await (const message of prompt) {
      this.sent.push(message);
      const waiters = this.sendWaiters;
      this.sendWaiters = [];
      for (const w of waiters) w();
    }
  }
}

export interface FakeFactory {
  factory: QueryFactory;
  queries: ScriptedQuery[];
  /** The most recent query (throws if none was created). */
  readonly query: ScriptedQuery;
}

export function fakeQueryFactory(): FakeFactory {
  const queries: ScriptedQuery[] = [];
  return {
    factory: (params) => {
      const q = new ScriptedQuery(params);
      queries.push(q);
      return q;
    },
    queries,
    get query() {
      const q = queries.at(-1);
      if (q === undefined) throw new Error("no query created yet");
      return q;
    },
  };
}
