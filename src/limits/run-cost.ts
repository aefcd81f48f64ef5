/**
 * What one run cost, from the runtime's `result.total_cost_usd`, a running total of the Claude
 * session (every turn of a streaming-input process; a resumed session continues from the total
 * the runtime saved): a run's share is the difference from the session's previous result.
 *
 * The narrowest seam until per-run usage is on the result itself: a total lower than the last
 * one seen is a new process that started from zero. Not known across a restart of this server:
 * then the first run of a resumed session counts the saved total again (the budget errs high).
 */
export class RunCostMeter {
  /** Claude session id → the last total seen; bounded (oldest forgotten first). */
  private readonly totals = new Map<string, number>();

  constructor(private readonly maxSessions = 10_000) {}

  /** The cost (USD) of the run whose result reported `totalCostUsd` in session `sessionId`. */
  costOf(result: { readonly sessionId?: string; readonly totalCostUsd?: number }): number {
    const total = result.totalCostUsd;
    if (total === undefined || !(total >= 0)) return 0;
    const id = result.sessionId;
    if (id === undefined) return total;
    const previous = this.totals.get(id);
    this.totals.delete(id);
    this.totals.set(id, total);
    if (this.totals.size > this.maxSessions) {
      const oldest = this.totals.keys().next().value;
      if (oldest !== undefined) this.totals.delete(oldest);
    }
    return previous === undefined || total < previous ? total : total - previous;
  }
}
