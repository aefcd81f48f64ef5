/**
 * The decisions of `sessions.spares`: Claude Code processes started ahead, with the workspace's
 * options, so that a new conversation takes one instead of waiting for a process to start. Pure:
 * `SpareSessions` (spare-sessions.ts) only asks.
 */

/** A spare as the decisions see it. */
export interface SpareView {
  /** Its process has not ended (it can still serve). */
  readonly alive: boolean;
  /** The folder it was started in. */
  readonly cwd: string;
  /** The workspace's settings and memory files when it started (`fingerprint`). */
  readonly fingerprint: string;
  /** How long it has waited (ms). */
  readonly idleMs: number;
}

/** What a new conversation offers a spare. */
export interface SpareAsk {
  /** Its Claude session resumes an earlier one: a spare (a fresh session) cannot serve it. */
  readonly resumes: boolean;
  /** The folder its process must run in (the workspace, or its worktree). */
  readonly cwd: string;
  /** The workspace's settings and memory files now. */
  readonly fingerprint: string;
  /** `sessions.spareIdleMs`: a spare older than this is recycled, never handed out. */
  readonly maxIdleMs: number;
}

export type SpareVerdict =
  /** The conversation takes it. */
  | { readonly kind: "take" }
  /** Not for this conversation; it stays ready for another. */
  | { readonly kind: "keep"; readonly reason: "resumes" | "elsewhere" }
  /** It must never be handed out: it is closed (and another started). */
  | { readonly kind: "discard"; readonly reason: DiscardReason };

export type DiscardReason = "dead" | "settings changed" | "idle too long";

/** Whether `spare` serves the conversation `ask`. Pure. */
export function spareVerdict(spare: SpareView, ask: SpareAsk): SpareVerdict {
  if (!spare.alive) return { kind: "discard", reason: "dead" };
  if (spare.fingerprint !== ask.fingerprint) return { kind: "discard", reason: "settings changed" };
  if (spare.idleMs >= ask.maxIdleMs) return { kind: "discard", reason: "idle too long" };
  if (ask.resumes) return { kind: "keep", reason: "resumes" };
  if (spare.cwd !== ask.cwd) return { kind: "keep", reason: "elsewhere" };
  return { kind: "take" };
}

/** The spares' side of the machine, when the next one might start. */
export interface SpareSupply {
  /** `sessions.spares`. */
  readonly wanted: number;
  /** Spares there (ready, or starting). */
  readonly present: number;
  /**
   * A conversation took a spare and its first turn is not under way yet: a new process now
   * would compete with that turn for the cores.
   */
  readonly holding: boolean;
  /**
   * New conversations that found no spare are starting processes of their own, their first
   * turn not under way yet (a burst): a spare now would compete with them for the cores.
   */
  readonly starting: boolean;
  /**
   * No turn of the workspace runs or just ran, or it has been busy too long to wait for that
   * (`spare-quiet.ts`): a start-up now would not slow a turn down.
   */
  readonly quiet: boolean;
  /** One more process fits under `sessions.maxLive` with nothing closed and nobody waiting. */
  readonly room: boolean;
  /** A folder to start it in is there (the spare worktree is built). */
  readonly site: boolean;
  /** Shutdown has begun. */
  readonly closed: boolean;
}

export type SupplyDecision =
  | { readonly kind: "start" }
  | {
      readonly kind: "wait";
      readonly reason:
        "enough" | "closed" | "holding" | "starting" | "busy" | "no room" | "no site";
    };

/**
 * Whether to start a spare now: one at a time (each start is a CPU burst of its own), only while
 * fewer than wanted are there, never over the process cap or ahead of a conversation waiting
 * for a slot, and never while a conversation that just took one, or a burst of new ones that
 * found none, has its first turn to run, nor while the workspace's turns are running. Pure.
 */
export function supplyDecision(s: SpareSupply): SupplyDecision {
  if (s.closed) return { kind: "wait", reason: "closed" };
  if (s.present >= s.wanted) return { kind: "wait", reason: "enough" };
  if (s.holding) return { kind: "wait", reason: "holding" };
  if (s.starting) return { kind: "wait", reason: "starting" };
  if (!s.quiet) return { kind: "wait", reason: "busy" };
  if (!s.room) return { kind: "wait", reason: "no room" };
  if (!s.site) return { kind: "wait", reason: "no site" };
  return { kind: "start" };
}
