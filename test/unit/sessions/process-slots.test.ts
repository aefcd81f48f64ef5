import { describe, expect, it } from "vitest";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import {
  evictionOrder,
  fits,
  ProcessSlots,
  type Occupant,
  waitsForBusy,
} from "../../../src/sessions/process-slots.js";
import { key } from "./support/pool.js";
import { settled, SlotStandIn } from "./support/slot-host.js";

/** Named sessions: busy or idle, last used (pool counter), idle since (ms). */
const occupants: Record<string, Occupant> = {
  busy: { key: key("busy"), busy: true, lastUsed: 1, idleSince: 0 },
  oldLru: { key: key("oldLru"), busy: false, lastUsed: 2, idleSince: 0 },
  oldMru: { key: key("oldMru"), busy: false, lastUsed: 6, idleSince: 8_000 },
  young: { key: key("young"), busy: false, lastUsed: 3, idleSince: 9_500 },
  younger: { key: key("younger"), busy: false, lastUsed: 4, idleSince: 9_900 },
  edge: { key: key("edge"), busy: false, lastUsed: 5, idleSince: 9_000 },
  spare: { key: key("spare"), busy: false, lastUsed: 9, idleSince: 9_990, spare: true },
};
const names = (keys: readonly ConversationKey[]) =>
  keys.map((k) => Object.keys(occupants).find((n) => occupants[n]?.key === k));

describe("evictionOrder", () => {
  // At now = 10 000 with a grace of 1 000 ms: "young" and "younger" are in their grace.
  it.each([
    [[], []],
    [["busy"], []],
    [
      ["oldMru", "busy", "oldLru"],
      ["oldLru", "oldMru"],
    ],
    // In its grace, but nothing else is idle: still a victim, at once.
    [["young"], ["young"]],
    [
      ["busy", "younger", "young"],
      ["young", "younger"],
    ],
    // Out of grace goes first, even when used more recently.
    [
      ["younger", "young", "oldMru"],
      ["oldMru", "young", "younger"],
    ],
    // A spare goes first: before the least recently used, even in its grace.
    [
      ["oldLru", "spare", "busy", "young"],
      ["spare", "oldLru", "young"],
    ],
    // Idle exactly the grace: out of it.
    [
      ["young", "edge"],
      ["edge", "young"],
    ],
    [
      ["younger", "edge", "busy", "oldMru", "young", "oldLru"],
      ["oldLru", "edge", "oldMru", "young", "younger"],
    ],
  ] as const)("%j: %j", (present, order) => {
    const live = present.map((n) => occupants[n] as Occupant);
    expect(names(evictionOrder(live, 10_000, 1_000))).toEqual(order);
  });

  it("with no grace it is least recently used first, after the spare", () => {
    const all = Object.values(occupants);
    expect(names(evictionOrder(all, 10_000, 0))).toEqual([
      "spare",
      "oldLru",
      "young",
      "younger",
      "edge",
      "oldMru",
    ]);
  });
});

describe("waitsForBusy", () => {
  /** A pool's demand: what is not named is none. */
  const demand = (d: Partial<Parameters<typeof waitsForBusy>[0]>) => ({
    live: 0,
    idle: 0,
    closing: 0,
    reserved: 0,
    held: 0,
    waiting: 0,
    ...d,
  });
  // Under a cap of 4.
  it.each([
    ["every slot busy", demand({ live: 4 }), true],
    ["an idle session to close", demand({ live: 4, idle: 1 }), false],
    ["the idle one is for the waiter ahead", demand({ live: 4, idle: 1, waiting: 1 }), true],
    ["two idle, one waiter ahead", demand({ live: 4, idle: 2, waiting: 1 }), false],
    ["a process still exiting", demand({ live: 3, closing: 1 }), false],
    ["its slot kept for the waiter ahead", demand({ live: 3, reserved: 1 }), true],
    ["over the cap, idle ones to close", demand({ live: 6, idle: 3 }), false],
    ["over the cap, all but one busy", demand({ live: 6, idle: 2 }), true],
    ["a reviewer holds the last slot", demand({ live: 3, held: 1 }), true],
    ["a reviewer holds one, an idle one to close", demand({ live: 3, idle: 1, held: 1 }), false],
  ])("%s: %s", (_name, counts, expected) => {
    expect(waitsForBusy(counts, 4)).toBe(expected);
  });
});

describe("fits", () => {
  it.each([
    [{ live: 0, closing: 0, reserved: 0, held: 0 }, 1, true],
    [{ live: 1, closing: 0, reserved: 0, held: 0 }, 1, false],
    [{ live: 0, closing: 1, reserved: 0, held: 0 }, 1, false],
    [{ live: 0, closing: 0, reserved: 1, held: 0 }, 1, false],
    [{ live: 0, closing: 0, reserved: 0, held: 1 }, 1, false],
    [{ live: 2, closing: 1, reserved: 0, held: 0 }, 4, true],
    [{ live: 2, closing: 1, reserved: 1, held: 0 }, 4, false],
    [{ live: 2, closing: 0, reserved: 0, held: 2 }, 4, false],
    [{ live: 5, closing: 0, reserved: 0, held: 0 }, 4, false],
  ] as const)("%o under %i: %s", (counts, maxLive, expected) => {
    expect(fits(counts, maxLive)).toBe(expected);
  });
});

function slots(maxLive: number): SlotStandIn<ProcessSlots> {
  const host = new SlotStandIn<ProcessSlots>();
  host.slots = new ProcessSlots({ maxLive, graceMs: 0, now: () => 0 }, host);
  return host;
}

describe("ProcessSlots", () => {
  it("keeps a slot for a conversation let in until its session is created, then counts the session", async () => {
    const h = slots(1);
    expect(h.slots.wouldWait(key("a"))).toBe(false);
    await h.slots.whenFree(key("a"));
    // Promised to a: b would wait although nothing is live yet.
    expect(h.slots.wouldWait(key("b"))).toBe(true);
    h.add("a");
    expect(h.slots.processCount).toBe(1);
    expect(h.slots.wouldWait(key("a"))).toBe(false);
    expect(h.slots.wouldWait(key("b"))).toBe(true);
  });

  it("a waiter gets the slot of an idle session once that session's process has exited", async () => {
    const h = slots(1);
    await h.slots.whenFree(key("a"));
    h.add("a");
    const b = h.slots.whenFree(key("b"));
    expect(h.slots.waiting).toBe(1);
    h.idle("a", 1);
    expect(h.evicted).toEqual(["a"]);
    expect(h.slots.processCount).toBe(1);
    expect(await settled(b)).toBe(false);
    h.slots.closingEnded();
    expect(await settled(b)).toBe(true);
    expect(h.slots.waiting).toBe(0);
  });

  it("trims idle sessions beyond the cap, least recently used first, never a busy one", () => {
    const h = slots(2);
    h.add("a");
    h.add("b");
    h.add("c");
    h.slots.trim();
    expect(h.evicted).toEqual([]);
    const idle = (name: string, lastUsed: number) =>
      h.live.set(key(name), { key: key(name), busy: false, lastUsed, idleSince: 0 });
    idle("a", 3);
    idle("b", 2);
    h.slots.trim();
    expect(h.evicted).toEqual(["b"]);
  });

  it("close sends waiters and later callers away with the reason, and serves no one after", async () => {
    const h = slots(1);
    await h.slots.whenFree(key("a"));
    h.add("a");
    const b = h.slots.whenFree(key("b"));
    h.slots.close("stopping");
    await expect(b).rejects.toThrow("stopping");
    await expect(h.slots.whenFree(key("c"))).rejects.toThrow("stopping");
    expect(h.slots.wouldWait(key("c"))).toBe(false);
  });
});
