/**
 * When a spare may start, as the workspace's turns see it. A Claude Code start-up is about 1 s of
 * CPU; on a small machine it made every turn it overlapped slower (a warm follow-up sent right
 * after a one-shot took twice as long with spares on: docs/spares.md, "What a start-up costs").
 * So the next spare waits for a quiet moment: no turn of the workspace running and none started
 * or ended in the last `quietMs`. A workspace that is never quiet gets its spare anyway once it
 * has been busy for `maxWaitMs`: then a spare starts as it did before, beside the turns.
 */
import type { SessionEvent } from "../claude/index.js";
import { OneShot, type Timers } from "../common/timers.js";

/** No turn started or ended this long (ms): the workspace is quiet. */
export const SPARE_QUIET_MS = 250;
/** Busy this long without a quiet moment (ms): the spare starts anyway. */
export const SPARE_MAX_WAIT_MS = 10_000;

/** The workspace's turns as the decision sees them. */
export interface Activity {
  /** Turns running now (every origin: a caller's, a background wake). */
  readonly running: number;
  /** Since a turn last started or ended (ms). */
  readonly sinceActivityMs: number;
  /** Since the workspace was last seen quiet (ms). */
  readonly sinceQuietMs: number;
}

export type QuietVerdict =
  | { readonly kind: "quiet" }
  /** Busy for longer than `maxWaitMs`: the spare starts beside the turns. */
  | { readonly kind: "overdue" }
  /** Ask again in `recheckMs`, or at the next turn's end. */
  | { readonly kind: "busy"; readonly recheckMs: number };

/** Whether the workspace is quiet enough for a spare's start-up. Pure. */
export function quietVerdict(
  a: Activity,
  o: { readonly quietMs: number; readonly maxWaitMs: number },
): QuietVerdict {
  if (a.running === 0 && a.sinceActivityMs >= o.quietMs) return { kind: "quiet" };
  if (a.sinceQuietMs >= o.maxWaitMs) return { kind: "overdue" };
  const overdueIn = o.maxWaitMs - a.sinceQuietMs;
  const quietIn = a.running === 0 ? o.quietMs - a.sinceActivityMs : Number.POSITIVE_INFINITY;
  return { kind: "busy", recheckMs: Math.min(overdueIn, quietIn) };
}

export interface WorkspaceActivityOptions {
  readonly timers: Timers;
  readonly now: () => number;
  /** The verdict may have changed from busy (a timer): ask again. */
  readonly recheck: () => void;
  readonly quietMs?: number;
  readonly maxWaitMs?: number;
}

/** The runs of the workspace's live sessions, from their events (`SessionPool.onEvent`). */
export class WorkspaceActivity {
  private readonly running = new Map<string, Set<string>>();
  private lastActivity = Number.NEGATIVE_INFINITY;
  private lastQuiet: number;
  private readonly timer: OneShot;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;

  constructor(private readonly o: WorkspaceActivityOptions) {
    this.lastQuiet = o.now();
    this.timer = new OneShot(o.timers);
    this.quietMs = o.quietMs ?? SPARE_QUIET_MS;
    this.maxWaitMs = o.maxWaitMs ?? SPARE_MAX_WAIT_MS;
  }

  onEvent(key: string, event: SessionEvent): void {
    switch (event.type) {
      case "run_started": {
        // The quiet moment lasted until now.
        if (this.verdict().kind === "quiet") this.lastQuiet = this.o.now();
        const runs = this.running.get(key) ?? new Set<string>();
        runs.add(event.runId);
        this.running.set(key, runs);
        this.lastActivity = this.o.now();
        return;
      }
      case "run_ended":
        if (this.running.get(key)?.delete(event.runId) !== true) return;
        if (this.running.get(key)?.size === 0) this.running.delete(key);
        this.lastActivity = this.o.now();
        // A spare waits for this: it may start once the quiet moment has lasted.
        if (this.running.size === 0 && this.timer.armed)
          this.timer.arm(this.quietMs, this.o.recheck);
        return;
      case "closed":
        if (this.running.delete(key)) this.lastActivity = this.o.now();
        return;
      default:
        return;
    }
  }

  /** Whether a spare may start now; when not, a recheck is armed for when it may. */
  allows(): boolean {
    const verdict = this.verdict();
    switch (verdict.kind) {
      case "quiet":
        this.lastQuiet = this.o.now();
        this.timer.clear();
        return true;
      case "overdue":
        this.timer.clear();
        return true;
      case "busy":
        this.timer.arm(verdict.recheckMs, () => this.o.recheck());
        return false;
    }
  }

  close(): void {
    this.timer.clear();
  }

  private verdict(): QuietVerdict {
    const now = this.o.now();
    let running = 0;
    for (const runs of this.running.values()) running += runs.size;
    return quietVerdict(
      { running, sinceActivityMs: now - this.lastActivity, sinceQuietMs: now - this.lastQuiet },
      { quietMs: this.quietMs, maxWaitMs: this.maxWaitMs },
    );
  }
}
