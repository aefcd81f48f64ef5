import type { Logger } from "pino";

/** Who owns the runtime's turn right now. */
export type TurnStateName = "idle" | "foreground" | "autonomous";

export type TurnTransitionResult =
  | { ok: true; from: TurnStateName; to: TurnStateName }
  | { ok: false; from: TurnStateName; to: TurnStateName; error: string };

/** Exactly the transitions of docs/provider-design.md ("Session Turn Ownership State"); autonomous → foreground only through the atomic handoff. */
const LEGAL: Readonly<Record<TurnStateName, readonly TurnStateName[]>> = {
  idle: ["foreground", "autonomous"],
  foreground: ["idle"],
  autonomous: ["idle", "foreground"],
};

export function isLegalTurnTransition(from: TurnStateName, to: TurnStateName): boolean {
  return LEGAL[from].includes(to);
}

export class TurnState {
  private current: TurnStateName = "idle";
  private handoffPending = false;

  constructor(
    private readonly logger: Logger,
    private readonly onChange: (from: TurnStateName, to: TurnStateName, reason: string) => void,
  ) {}

  get state(): TurnStateName {
    return this.current;
  }

  /** A foreground prompt is waiting for the autonomous turn to tear down. */
  get handoffRequested(): boolean {
    return this.handoffPending;
  }

  requestHandoff(): void {
    if (this.current !== "autonomous") return;
    this.handoffPending = true;
    this.logger.debug({ turnState: this.current }, "turn: handoff to foreground requested");
  }

  transition(to: TurnStateName, reason: string): TurnTransitionResult {
    const from = this.current;
    let error: string | undefined;
    if (!isLegalTurnTransition(from, to)) error = `illegal turn transition ${from} -> ${to}`;
    else if (from === "autonomous" && to === "foreground" && !this.handoffPending) {
      // Sending while an autonomous turn runs would queue the prompt behind it in the runtime.
      error = "autonomous -> foreground requires the atomic handoff (interrupt, await teardown)";
    }
    if (error !== undefined) {
      this.logger.error({ from, to, reason }, `turn: rejected: ${error}`);
      return { ok: false, from, to, error };
    }
    if (from === "autonomous") this.handoffPending = false;
    this.current = to;
    this.logger.debug({ from, to, reason }, "turn: transition");
    this.onChange(from, to, reason);
    return { ok: true, from, to };
  }
}
