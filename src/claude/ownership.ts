/**
 * Which run owns an identifier the runtime repeats later: an API message id, a tool use id, the
 * uuid of a send. The first owner wins: a later frame naming the same id is, by definition, about
 * the same work.
 */
export class OwnershipIndex {
  private readonly messages = new Map<string, string>();
  private readonly toolUses = new Map<string, string>();
  private readonly sends = new Map<string, string>();
  /** Callers waiting for a tool use the pump has not handled yet. */
  private readonly toolUseWaiters = new Map<string, Set<(runId: string | undefined) => void>>();
  private ended = false;

  recordMessage(messageId: string, runId: string): void {
    if (!this.messages.has(messageId)) this.messages.set(messageId, runId);
  }

  recordToolUse(toolUseId: string, runId: string): void {
    if (toolUseId === "" || this.toolUses.has(toolUseId)) return;
    this.toolUses.set(toolUseId, runId);
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
