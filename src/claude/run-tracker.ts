import type { Logger } from "pino";
import { failureCause, type FailureCause } from "./normalize.js";

export type RunOrigin = "foreground" | "autonomous";

export type RunLifecycle =
  | "queued"
  | "awaiting_response"
  | "streaming"
  | "finalizing"
  | "completed"
  | "interrupted"
  | "error";

export type SessionStatus = "running" | "permission" | "error" | "idle";

/** How a run ended; the terminal lifecycle state is the discriminant. */
export type RunOutcome =
  | { state: "completed"; text: string }
  | { state: "interrupted"; text: string; reason: string }
  /** `reason` is the runtime's own text; `cause`, when known, is what the failure was. */
  | { state: "error"; reason: string; cause?: FailureCause };

export interface Run {
  readonly id: string;
  readonly origin: RunOrigin;
  readonly seq: number;
  state: RunLifecycle;
  /** The uuid of the user message a foreground run sent. */
  userMessageUuid?: string;
  interruptRequested: boolean;
  /** Text of the latest main-thread assistant message: what an interrupted run had said. */
  lastText: string;
  /** What the latest main-thread assistant message says failed (unset once one succeeds). */
  failureCause?: FailureCause;
  outcome?: RunOutcome;
  /** Order of ending, so "the last ending" does not depend on map order. */
  endSeq?: number;
  /**
   * For an autonomous run: the background tasks whose completion woke the runtime (their
   * notifications came after the previous turn began), in the order they were notified.
   */
  causes?: readonly string[];
}

export type RunTransitionResult =
  { ok: true; run: Run; from: RunLifecycle } | { ok: false; error: string };

const ACTIVE: ReadonlySet<RunLifecycle> = new Set([
  "queued",
  "awaiting_response",
  "streaming",
  "finalizing",
]);

const LEGAL: Readonly<Record<RunLifecycle, readonly RunLifecycle[]>> = {
  // A queued prompt can be abandoned before it is sent, or lose its process.
  queued: ["awaiting_response", "interrupted", "error"],
  // A turn can end on its result without any content (API error, early interrupt).
  awaiting_response: ["streaming", "finalizing", "interrupted", "error"],
  streaming: ["finalizing", "interrupted", "error"],
  finalizing: ["completed", "interrupted", "error"],
  completed: [],
  interrupted: [],
  error: [],
};

export function isActiveLifecycle(state: RunLifecycle): boolean {
  return ACTIVE.has(state);
}

export function isLegalRunTransition(from: RunLifecycle, to: RunLifecycle): boolean {
  return LEGAL[from].includes(to);
}

/**
 * Status is derived, never stored: a pending permission question wins (the caller must answer),
 * then any active run, then the last ending; a dead process is an error until re-created.
 */
export function deriveStatus(
  runs: Iterable<Run>,
  permissionsPending: number,
  processFailed: boolean,
): SessionStatus {
  if (permissionsPending > 0) return "permission";
  let last: Run | undefined;
  for (const run of runs) {
    if (isActiveLifecycle(run.state)) return "running";
    if (last === undefined || (run.endSeq ?? 0) > (last.endSeq ?? 0)) last = run;
  }
  if (processFailed) return "error";
  return last?.state === "error" ? "error" : "idle";
}

/**
 * Ended runs kept for lookups by id (a stream's last events, `runs()`): the latest few. Older
 * ones are dropped, so a session's memory does not grow with its turns; the last ending is kept
 * apart for the status.
 */
export const KEPT_ENDED_RUNS = 16;

export class RunTracker {
  /** Active runs and the latest ended ones, in creation order. */
  private readonly runs = new Map<string, Run>();
  /** Ended runs still in `runs`, oldest ending first. */
  private readonly ended: string[] = [];
  private readonly activeRuns = new Set<Run>();
  /** The run that ended last: what the status falls back on when none is active. */
  private lastEnded: Run | undefined;
  private seq = 0;
  private endSeq = 0;

  constructor(
    private readonly logger: Logger,
    private readonly onTransition: (run: Run, from: RunLifecycle) => void,
    private readonly newId: () => string,
    /** An ended run is no longer kept: what is indexed by its id may go too. */
    private readonly onDropped: (runId: string) => void = () => undefined,
  ) {}

  create(origin: RunOrigin, initial: "queued" | "awaiting_response"): Run {
    const run: Run = {
      id: this.newId(),
      origin,
      seq: ++this.seq,
      state: initial,
      interruptRequested: false,
      lastText: "",
    };
    this.runs.set(run.id, run);
    this.activeRuns.add(run);
    this.logger.debug({ runId: run.id, origin, state: initial }, "run: created");
    return run;
  }

  get(id: string): Run | undefined {
    return this.runs.get(id);
  }

  all(): Run[] {
    return [...this.runs.values()];
  }

  active(): Run[] {
    return [...this.activeRuns];
  }

  /** What the status is derived from: the active runs and the last ending (not every run). */
  statusRuns(): Run[] {
    const runs = [...this.activeRuns];
    if (this.lastEnded !== undefined) runs.push(this.lastEnded);
    return runs;
  }

  transition(id: string, to: RunLifecycle, reason: string): RunTransitionResult {
    const run = this.runs.get(id);
    if (run === undefined) {
      this.logger.error({ runId: id, to, reason }, "run: transition of unknown run");
      return { ok: false, error: `unknown run ${id}` };
    }
    const from = run.state;
    if (!isLegalRunTransition(from, to)) {
      this.logger.error({ runId: id, from, to, reason }, "run: illegal transition rejected");
      return { ok: false, error: `illegal run transition ${from} -> ${to}` };
    }
    run.state = to;
    if (!isActiveLifecycle(to)) this.noteEnded(run);
    this.logger.debug({ runId: id, origin: run.origin, from, to, reason }, "run: transition");
    this.onTransition(run, from);
    return { ok: true, run, from };
  }

  private noteEnded(run: Run): void {
    run.endSeq = ++this.endSeq;
    this.activeRuns.delete(run);
    this.lastEnded = run;
    this.ended.push(run.id);
    while (this.ended.length > KEPT_ENDED_RUNS) {
      const old = this.ended.shift();
      if (old === undefined) continue;
      this.runs.delete(old);
      this.onDropped(old);
    }
  }

  /** Ends an active run, passing through `finalizing` so every ending follows the same path. */
  finish(id: string, outcome: RunOutcome, reason: string): RunTransitionResult {
    const run = this.runs.get(id);
    if (run === undefined || !isActiveLifecycle(run.state)) {
      return { ok: false, error: `run ${id} is not active` };
    }
    if (outcome.state === "completed" && run.state !== "finalizing") {
      const step = this.transition(id, "finalizing", reason);
      if (!step.ok) return step;
    }
    run.outcome = outcome;
    return this.transition(id, outcome.state, reason);
  }
}

/** What a turn's result means for the run it ends. */
export function outcomeFromResult(
  result: {
    success: boolean;
    subtype: string;
    text?: string;
    errors: readonly string[];
    terminalReason?: string;
    apiErrorStatus?: number;
  },
  run: Pick<Run, "interruptRequested" | "lastText" | "failureCause">,
): RunOutcome {
  if (result.success) return { state: "completed", text: result.text ?? run.lastText };
  const aborted = result.terminalReason?.startsWith("aborted_") === true;
  if (aborted || (run.interruptRequested && result.subtype === "error_during_execution")) {
    return {
      state: "interrupted",
      text: run.lastText,
      reason: result.terminalReason ?? "interrupted",
    };
  }
  const reason =
    result.errors.join("; ") ||
    result.text ||
    `turn ended with ${result.subtype}${result.terminalReason ? ` (${result.terminalReason})` : ""}`;
  const cause = run.failureCause ?? failureCause(undefined, result.apiErrorStatus);
  return cause === undefined ? { state: "error", reason } : { state: "error", reason, cause };
}
