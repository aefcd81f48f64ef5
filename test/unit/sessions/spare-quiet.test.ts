import pino from "pino";
import { describe, expect, it } from "vitest";
import type { ClaudeSession, SessionEvent } from "../../../src/claude/index.js";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import type { PoolSlots } from "../../../src/sessions/machine-slots.js";
import { PoolSpares } from "../../../src/sessions/pool-spares.js";
import {
  quietVerdict,
  SPARE_MAX_WAIT_MS,
  SPARE_QUIET_MS,
  WorkspaceActivity,
  type Activity,
} from "../../../src/sessions/spare-quiet.js";
import { supplyDecision } from "../../../src/sessions/spares.js";
import { ManualTimers } from "./support/pool.js";

const limits = { quietMs: SPARE_QUIET_MS, maxWaitMs: SPARE_MAX_WAIT_MS };
const idle: Activity = { running: 0, sinceActivityMs: 5_000, sinceQuietMs: 0 };

describe("quietVerdict: whether a spare's start-up would slow a turn", () => {
  it.each<[string, Partial<Activity>, ReturnType<typeof quietVerdict>]>([
    ["nothing ran for a while", {}, { kind: "quiet" }],
    ["nothing ever ran", { sinceActivityMs: Number.POSITIVE_INFINITY }, { kind: "quiet" }],
    ["a turn is running", { running: 1, sinceActivityMs: 10 }, { kind: "busy", recheckMs: 10_000 }],
    [
      "a turn just ended: the next one may follow (a caller's follow-up)",
      { sinceActivityMs: 50 },
      { kind: "busy", recheckMs: SPARE_QUIET_MS - 50 },
    ],
    ["the quiet moment has lasted", { sinceActivityMs: SPARE_QUIET_MS }, { kind: "quiet" }],
    [
      "busy past the bound: the spare starts beside the turns",
      { running: 2, sinceActivityMs: 10, sinceQuietMs: SPARE_MAX_WAIT_MS },
      { kind: "overdue" },
    ],
    [
      "running turns: rechecked when the bound is due",
      { running: 1, sinceActivityMs: 10, sinceQuietMs: 9_000 },
      { kind: "busy", recheckMs: 1_000 },
    ],
    [
      "just ended, the bound nearer than the quiet moment",
      { sinceActivityMs: 100, sinceQuietMs: 9_950 },
      { kind: "busy", recheckMs: 50 },
    ],
  ])("%s", (_name, a, expected) => {
    expect(quietVerdict({ ...idle, ...a }, limits)).toEqual(expected);
  });

  it("supplyDecision waits while the workspace is busy, after the reasons before it", () => {
    const supply = {
      wanted: 1,
      present: 0,
      holding: false,
      starting: false,
      quiet: false,
      room: true,
      site: true,
      closed: false,
    };
    expect(supplyDecision(supply)).toEqual({ kind: "wait", reason: "busy" });
    expect(supplyDecision({ ...supply, quiet: true })).toEqual({ kind: "start" });
    expect(supplyDecision({ ...supply, present: 1 })).toEqual({ kind: "wait", reason: "enough" });
    expect(supplyDecision({ ...supply, starting: true })).toEqual({
      kind: "wait",
      reason: "starting",
    });
  });
});

const started = (runId: string): SessionEvent => ({
  type: "run_started",
  runId,
  origin: "foreground",
});
const ended = (runId: string): SessionEvent =>
  ({ type: "run_ended", runId, origin: "foreground", outcome: { state: "completed" } }) as never;

describe("WorkspaceActivity: the workspace's turns, from its sessions' events", () => {
  const make = () => {
    const clock = new ManualTimers();
    let rechecks = 0;
    const activity = new WorkspaceActivity({
      timers: clock,
      now: () => clock.now,
      recheck: () => rechecks++,
    });
    return { clock, activity, rechecks: () => rechecks };
  };

  it("allows a spare when no turn ever ran", () => {
    expect(make().activity.allows()).toBe(true);
  });

  it("holds it back while a turn runs, and lets it go once a quiet moment has lasted", () => {
    const { clock, activity, rechecks } = make();
    activity.onEvent("a", started("r1"));
    expect(activity.allows()).toBe(false);
    clock.advance(100);
    activity.onEvent("a", ended("r1"));
    expect(activity.allows()).toBe(false);
    clock.advance(SPARE_QUIET_MS - 1);
    expect(rechecks()).toBe(0);
    clock.advance(1);
    expect(rechecks()).toBe(1);
    expect(activity.allows()).toBe(true);
  });

  it("a follow-up sent right after a turn keeps it held back", () => {
    const { clock, activity, rechecks } = make();
    activity.onEvent("a", started("r1"));
    activity.onEvent("a", ended("r1"));
    expect(activity.allows()).toBe(false);
    clock.advance(20);
    activity.onEvent("b", started("r2"));
    clock.advance(SPARE_QUIET_MS);
    // The recheck came while r2 runs: still busy.
    expect(rechecks()).toBe(1);
    expect(activity.allows()).toBe(false);
    activity.onEvent("b", ended("r2"));
    clock.advance(SPARE_QUIET_MS);
    expect(rechecks()).toBe(2);
    expect(activity.allows()).toBe(true);
  });

  it("a workspace never quiet gets its spare once busy past the bound", () => {
    const { clock, activity, rechecks } = make();
    activity.onEvent("a", started("r1"));
    expect(activity.allows()).toBe(false);
    clock.advance(SPARE_MAX_WAIT_MS);
    expect(rechecks()).toBe(1);
    expect(activity.allows()).toBe(true);
  });

  it("a closed session's runs stop counting; an unknown run's end changes nothing", () => {
    const { clock, activity } = make();
    activity.onEvent("a", started("r1"));
    activity.onEvent("a", started("r2"));
    activity.onEvent("b", ended("r9"));
    clock.advance(SPARE_QUIET_MS);
    expect(activity.allows()).toBe(false);
    activity.onEvent("a", { type: "closed", reason: "gone" });
    clock.advance(SPARE_QUIET_MS);
    expect(activity.allows()).toBe(true);
  });
});

/** A spare session as the pool's spares see it: events in, start and close counted. */
function fakeSession() {
  const listeners = new Set<(e: SessionEvent) => void>();
  const s = {
    starts: 0,
    subscribe: (l: (e: SessionEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    start: () => {
      s.starts++;
    },
    close: () => Promise.resolve(),
    emit: (e: SessionEvent) => {
      for (const l of [...listeners]) l(e);
    },
  };
  return s;
}

describe("PoolSpares: the next spare waits for the workspace's turns", () => {
  const make = () => {
    const clock = new ManualTimers();
    const made: ReturnType<typeof fakeSession>[] = [];
    const slots = {
      hasRoom: () => true,
      closingStarted: () => undefined,
      closingEnded: () => undefined,
    } as unknown as PoolSlots;
    const spares = new PoolSpares(
      {
        wanted: 1,
        maxIdleMs: 3_600_000,
        create: () => {
          const session = fakeSession();
          made.push(session);
          return { session: session as unknown as ClaudeSession, bind: () => undefined };
        },
        site: { current: () => "/w" },
        fingerprint: () => "f",
        cwdOf: () => "/w",
      },
      {
        slots: () => slots,
        known: () => false,
        closed: () => false,
        timers: clock,
        now: () => clock.now,
        logger: pino({ level: "silent" }),
      },
    );
    return { clock, spares, made };
  };
  const key = (k: string) => k as ConversationKey;

  /** A one-shot takes the spare, its turn runs and ends; a follow-up of another context next. */
  it("a follow-up sent right after a one-shot runs before the next spare starts", () => {
    const { clock, spares, made } = make();
    spares.fill();
    expect(made).toHaveLength(1);
    expect(spares.take(key("one"))).toBe(true);
    const claim = spares.claim(key("one"), false);
    expect(claim.kind).toBe("session");
    const taken = made[0]!;
    const event = (k: string, e: SessionEvent) => {
      if (k === "one") taken.emit(e);
      spares.onEvent(key(k), e);
    };
    event("one", started("r1"));
    event("one", { type: "run_event", runId: "r1" } as never);
    // Its first turn is under way: before, the next spare started here, beside the turn.
    clock.advance(0);
    expect(made).toHaveLength(1);
    event("one", ended("r1"));
    clock.advance(10);
    event("warm", started("r2"));
    clock.advance(SPARE_QUIET_MS);
    expect(made).toHaveLength(1);
    event("warm", ended("r2"));
    clock.advance(SPARE_QUIET_MS - 1);
    expect(made).toHaveLength(1);
    clock.advance(1);
    expect(made).toHaveLength(2);
    expect(made[1]!.starts).toBe(1);
  });

  it("turns that never pause get the spare after the bound, as before", () => {
    const { clock, spares, made } = make();
    spares.fill();
    spares.take(key("one"));
    spares.claim(key("one"), false);
    spares.onEvent(key("busy"), started("r1"));
    made[0]!.emit({ type: "run_event", runId: "r0" } as never);
    clock.advance(SPARE_MAX_WAIT_MS - 1);
    expect(made).toHaveLength(1);
    clock.advance(1);
    expect(made).toHaveLength(2);
  });
});
