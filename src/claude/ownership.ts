/**
 * Which run owns an identifier the runtime repeats later: an API message id, a tool use id, the
 * uuid of a send. The first owner wins: a later frame naming the same id is, by definition, about
 * the same work. A run's identifiers go with the run (`forgetRun`), so the index holds the runs
 * the session still keeps, not every one it ever had.
 */
export class OwnershipIndex {
  private readonly messages = new Map<string, string>();
  private readonly toolUses = new Map<string, string>();
  private readonly sends = new Map<string, string>();
  /** Each run's identifiers in the maps above, so forgetting a run touches only its own. */
  private readonly byRun = new Map<string, RunIds>();
  /** Callers waiting for a tool use the pump has not handled yet. */
  private readonly toolUseWaiters = new Map<string, Set<(runId: string | undefined) => void>>();
  private ended = false;

  recordMessage(messageId: string, runId: string): void {
    if (this.messages.has(messageId)) return;
    this.messages.set(messageId, runId);
    this.idsOf(runId).messages.push(messageId);
  }

  recordToolUse(toolUseId: string, runId: string): void {
    if (toolUseId === "" || this.toolUses.has(toolUseId)) return;
    this.toolUses.set(toolUseId, runId);
    this.idsOf(runId).toolUses.push(toolUseId);
    const waiters = this.toolUseWaiters.get(toolUseId);
    this.toolUseWaiters.delete(toolUseId);
    for (const wake of waiters ?? []) wake(runId);
  }

  /**
   * The run that made a tool call, once the pump has handled the frame that carries it. The
   * runtime's permission requests and hooks travel on the control channel, which the SDK serves
   * as soon as it reads them, while the frame naming the tool use may still wait in the message
   * queue the pump reads: so a caller may have to wait for it. It resolves undefined when `signal`
   * aborts (the runtime gave up the call) or the process ended: no frame will come.
   */
  whenToolUse(toolUseId: string, signal?: AbortSignal): Promise<string | undefined> {
    const known = this.toolUses.get(toolUseId);
    if (known !== undefined || this.ended || signal?.aborted === true) {
      return Promise.resolve(known);
    }
    return new Promise((resolve) => {
      const waiters = this.toolUseWaiters.get(toolUseId) ?? new Set();
      this.toolUseWaiters.set(toolUseId, waiters);
      const wake = (runId: string | undefined) => {
        waiters.delete(wake);
        signal?.removeEventListener("abort", onAbort);
        resolve(runId);
      };
      const onAbort = () => wake(undefined);
      waiters.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The process ended: nobody will record the tool uses still awaited. */
  endWaits(): void {
    this.ended = true;
    const all = [...this.toolUseWaiters.values()];
    this.toolUseWaiters.clear();
    for (const waiters of all) for (const wake of [...waiters]) wake(undefined);
  }

  recordSend(uuid: string, runId: string): void {
    this.sends.set(uuid, runId);
    this.idsOf(runId).sends.push(uuid);
  }

  /**
   * The session no longer keeps the run: a frame naming one of its identifiers could only be
   * routed to a run that is gone, so they are dropped. A tool use that launched a background task
   * stays attributed through the task (`BackgroundTaskRegistry` reads the run when it starts).
   */
  forgetRun(runId: string): void {
    const ids = this.byRun.get(runId);
    if (ids === undefined) return;
    this.byRun.delete(runId);
    forget(this.messages, ids.messages, runId);
    forget(this.toolUses, ids.toolUses, runId);
    forget(this.sends, ids.sends, runId);
  }

  /** How many identifiers are held, for tests of the bound. */
  get size(): number {
    return this.messages.size + this.toolUses.size + this.sends.size;
  }

  private idsOf(runId: string): RunIds {
    let ids = this.byRun.get(runId);
    if (ids === undefined) this.byRun.set(runId, (ids = { messages: [], toolUses: [], sends: [] }));
    return ids;
  }

  runForMessage(messageId: string): string | undefined {
    return this.messages.get(messageId);
  }

  runForToolUse(toolUseId: string): string | undefined {
    return this.toolUses.get(toolUseId);
  }

  runForSend(uuid: string): string | undefined {
    return this.sends.get(uuid);
  }
}

interface RunIds {
  readonly messages: string[];
  readonly toolUses: string[];
  readonly sends: string[];
}

/** Deletes `keys` from `map` where they still name `runId` (a send's uuid may have moved on). */
function forget(map: Map<string, string>, keys: readonly string[], runId: string): void {
  for (const key of keys) if (map.get(key) === runId) map.delete(key);
}
