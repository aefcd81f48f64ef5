/** How a steering message reaches a running turn (the runtime's `SDKUserMessage.priority`). */
export type SteerPriority = "now" | "next";

/**
 * What became of a steering message: `sent` to the runtime (it folds it into the turn at the
 * next tool boundary, or, with `now`, stops the step under way and goes on with it); `merged`
 * into the run's prompt, which had not left the session's queue; `not_running`: the run holds no
 * turn (ended, not ours, or the session is closing), so nothing was sent.
 */
export type SteerOutcome =
  | { readonly kind: "sent"; readonly uuid: string }
  | { readonly kind: "merged"; readonly uuid: string }
  | { readonly kind: "not_running" };

/**
 * The steering messages sent to each run and not yet taken by the runtime. The runtime lists a
 * message it folded into a turn in the `user_message_uuids` of that turn's frames; one it did
 * not fold before the turn's result (the turn was ending, or `now` stopped it) runs as the
 * runtime's next turn, and that turn is still the same run's: a run ends only on a result with
 * none of its steering messages left untaken. Bookkeeping only.
 */
export class SteerBook {
  private readonly waiting = new Map<string, string[]>();

  add(runId: string, uuid: string): void {
    const list = this.waiting.get(runId) ?? [];
    list.push(uuid);
    this.waiting.set(runId, list);
  }

  /** The messages of `runId` that `sends` (a frame's stamps) names, now taken; removed here. */
  take(runId: string, sends: readonly string[]): string[] {
    const list = this.waiting.get(runId);
    if (list === undefined || sends.length === 0) return [];
    const taken = list.filter((uuid) => sends.includes(uuid));
    if (taken.length === 0) return [];
    const left = list.filter((uuid) => !sends.includes(uuid));
    if (left.length === 0) this.waiting.delete(runId);
    else this.waiting.set(runId, left);
    return taken;
  }

  /** The first message of `runId` the runtime has not taken: its next turn answers it. */
  firstWaiting(runId: string): string | undefined {
    return this.waiting.get(runId)?.[0];
  }

  forget(runId: string): void {
    this.waiting.delete(runId);
  }
}
