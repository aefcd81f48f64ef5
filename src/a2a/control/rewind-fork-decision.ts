import { CONTROL_KEYS, type ControlRecord } from "../../contract/control.js";
import { CONTROL_TEXT } from "../../contract/control-texts.js";
import { refuse, type Checked } from "../../common/refusal.js";

/** What a new task's message asks of the control extension (rewind, fork), before any lookup. */
export type ControlIntent =
  | { readonly kind: "none" }
  | { readonly kind: "rewind"; readonly to: string; readonly dryRun: boolean }
  | { readonly kind: "fork"; readonly of: string }
  | { readonly kind: "refuse"; readonly reason: string };

/** A new message's rewind or fork, as the request guard sees it before any task exists. */
export type ControlCheck =
  | { readonly kind: "none" }
  | { readonly kind: "admitted" }
  | { readonly kind: "refused"; readonly reason: string };

export interface IntentQuestion {
  readonly metadata: Record<string, unknown> | undefined;
  /** The client's request names the control extension. */
  readonly extensionActive: boolean;
  /** `server.control.rewind` and `.fork`. */
  readonly enabled: { readonly rewind: boolean; readonly fork: boolean };
  /** The message names a task (`taskId`): it is not a new task. */
  readonly hasTaskId: boolean;
}

const isId = (v: unknown): v is string => typeof v === "string" && /^[\w.:-]{1,200}$/.test(v);

/**
 * Reads `metadata.rewindTo`, `metadata.dryRun` and `metadata.forkOf`. Neither key: nothing to
 * do (a `dryRun` alone is refused: it would otherwise run the prompt for real). Pure.
 */
export function controlIntent(q: IntentQuestion): ControlIntent {
  const m = q.metadata ?? {};
  const rewindTo = m[CONTROL_KEYS.rewindTo];
  const forkOf = m[CONTROL_KEYS.forkOf];
  const dryRun = m[CONTROL_KEYS.dryRun];
  const refuse = (reason: string): ControlIntent => ({ kind: "refuse", reason });
  if (rewindTo === undefined && forkOf === undefined) {
    return dryRun === undefined ? { kind: "none" } : refuse(CONTROL_TEXT.dryRunAlone);
  }
  if (rewindTo !== undefined && forkOf !== undefined) return refuse(CONTROL_TEXT.both);
  const key = rewindTo !== undefined ? CONTROL_KEYS.rewindTo : CONTROL_KEYS.forkOf;
  if (!q.extensionActive) return refuse(CONTROL_TEXT.needsExtension(key));
  if (q.hasTaskId) return refuse(CONTROL_TEXT.withTaskId(key));
  if (forkOf !== undefined) {
    if (!q.enabled.fork) return refuse(CONTROL_TEXT.off("fork"));
    if (dryRun !== undefined) return refuse(CONTROL_TEXT.dryRunAlone);
    return isId(forkOf)
      ? { kind: "fork", of: forkOf }
      : refuse(CONTROL_TEXT.notATaskId(key, forkOf));
  }
  if (!q.enabled.rewind) return refuse(CONTROL_TEXT.off("rewind"));
  if (!isId(rewindTo)) return refuse(CONTROL_TEXT.notATaskId(key, rewindTo));
  if (dryRun !== undefined && typeof dryRun !== "boolean") {
    return refuse(CONTROL_TEXT.dryRunNotBoolean(dryRun));
  }
  return { kind: "rewind", to: rewindTo, dryRun: dryRun === true };
}

/** The task a rewind or fork names, as the caller's store has it (undefined: not theirs). */
export interface TargetView {
  readonly contextId: string;
  readonly ended: boolean;
  readonly record: ControlRecord | undefined;
}

export interface TargetQuestion {
  readonly intent: Extract<ControlIntent, { kind: "rewind" | "fork" }>;
  readonly target: TargetView | undefined;
  /** The new task's context. */
  readonly contextId: string;
  /** Other tasks of the new task's conversation that are running or queued. */
  readonly othersActive: number;
  /** Other tasks stored in the new task's context. */
  readonly othersInContext: number;
  /** Under worktree isolation (a recorded commit is needed). */
  readonly worktree: boolean;
}

/** Whether the named task can be rewound to or forked from; the refusal says why. Pure. */
export function checkTarget(q: TargetQuestion): Checked {
  const id = q.intent.kind === "rewind" ? q.intent.to : q.intent.of;
  const no = refuse;
  const t = q.target;
  if (t === undefined) return no(CONTROL_TEXT.unknownTask(id));
  if (q.intent.kind === "rewind") {
    if (t.contextId !== q.contextId) return no(CONTROL_TEXT.otherContext(id));
    if (q.othersActive > 0) return no(CONTROL_TEXT.busy(id));
  } else {
    if (t.contextId === q.contextId) return no(CONTROL_TEXT.sameContext(id));
    if (q.othersInContext > 0) return no(CONTROL_TEXT.contextInUse);
  }
  if (!t.ended) return no(CONTROL_TEXT.notEnded(id));
  const r = t.record;
  if (r?.promptUuid === undefined || r.sessionId === undefined) {
    return no(CONTROL_TEXT.notRecorded(id));
  }
  const commit = q.intent.kind === "rewind" ? r.startCommit : r.endCommit;
  if (q.worktree && commit === undefined) return no(CONTROL_TEXT.noCommit(id));
  return { ok: true };
}
