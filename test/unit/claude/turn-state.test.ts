import { describe, expect, it } from "vitest";
import {
  isLegalTurnTransition,
  TurnState,
  type TurnStateName,
} from "../../../src/claude/turn-state.js";
import { silentLogger } from "./support/helpers.js";

const make = () => {
  const seen: [TurnStateName, TurnStateName][] = [];
  const turn = new TurnState(silentLogger, (from, to) => seen.push([from, to]));
  return { turn, seen };
};

describe("TurnState", () => {
  it("allows exactly the plan's transitions", () => {
    const all: TurnStateName[] = ["idle", "foreground", "autonomous"];
    const legal = all.flatMap((from) =>
      all.filter((to) => isLegalTurnTransition(from, to)).map((to) => `${from}->${to}`),
    );
    expect(legal.sort()).toEqual(
      [
        "idle->foreground",
        "foreground->idle",
        "idle->autonomous",
        "autonomous->idle",
        "autonomous->foreground",
      ].sort(),
    );
  });

  it("rejects an illegal transition and keeps its state", () => {
    const { turn, seen } = make();
    turn.transition("foreground", "send");
    const rejected = turn.transition("autonomous", "bogus");
    expect(rejected.ok).toBe(false);
    expect(turn.state).toBe("foreground");
    expect(seen).toEqual([["idle", "foreground"]]);
  });

  it("only lets autonomous become foreground through a requested handoff", () => {
    const { turn } = make();
    turn.transition("autonomous", "wake");
    expect(turn.transition("foreground", "send").ok).toBe(false);
    expect(turn.state).toBe("autonomous");
    turn.requestHandoff();
    expect(turn.handoffRequested).toBe(true);
    expect(turn.transition("foreground", "handoff").ok).toBe(true);
    expect(turn.handoffRequested).toBe(false);
  });

  it("ignores a handoff request when no autonomous turn runs", () => {
    const { turn } = make();
    turn.requestHandoff();
    expect(turn.handoffRequested).toBe(false);
  });
});
