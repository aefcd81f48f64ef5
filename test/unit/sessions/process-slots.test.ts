import { describe, expect, it } from "vitest";
import {
  conversationKey,
  parseConversationKey,
  type ConversationKey,
} from "../../../src/identity/conversation.js";
import {
  evictionChoice,
  fits,
  ProcessSlots,
  type Occupant,
  type SlotHost,
} from "../../../src/sessions/process-slots.js";
import type { Timers } from "../../../src/timers.js";

const key = (contextId: string) => conversationKey({ owner: "unknown", contextId });

/** Named sessions: busy or idle, last used (pool counter), idle since (ms). */
const occupants: Record<string, Occupant> = {
  busy: { key: key("busy"), busy: true, lastUsed: 1, idleSince: 0 },
  oldLru: { key: key("oldLru"), busy: false, lastUsed: 2, idleSince: 0 },
  oldMru: { key: key("oldMru"), busy: false, lastUsed: 5, idleSince: 1_000 },
  young: { key: key("young"), busy: false, lastUsed: 3, idleSince: 9_500 },
  younger: { key: key("younger"), busy: false, lastUsed: 4, idleSince: 9_900 },
};
const names = (keys: readonly ConversationKey[]) =>
  keys.map((k) => Object.keys(occupants).find((n) => occupants[n]?.key === k));

describe("evictionChoice", () => {
  // At now = 10 000 with a minimum idle time of 1 000 ms.
  it.each([
    [[], [], undefined],
    [["busy"], [], undefined],
    [["oldMru", "busy", "oldLru"], ["oldLru", "oldMru"], undefined],
    [["young"], [], 10_500],
    [["younger", "young", "oldMru"], ["oldMru"], 10_500],
    [["younger"], [], 10_900],
  ] as const)("%j: evicts %j now, next at %s", (present, eligible, nextAt) => {
    const choice = evictionChoice(
      present.map((n) => occupants[n] as Occupant),
      10_000,
      1_000,
    );
    expect(names(choice.eligible)).toEqual(eligible);
    expect(choice.nextAt).toBe(nextAt);
  });

  it("with no minimum every idle session is eligible, least recently used first", () => {
    const all = Object.values(occupants);
    expect(names(evictionChoice(all, 10_000, 0).eligible)).toEqual([
      "oldLru",
      "young",
      "younger",
      "oldMru",
    ]);
  });
});

describe("fits", () => {
  it.each([
    [{ live: 0, closing: 0, reserved: 0 }, 1, true],
    [{ live: 1, closing: 0, reserved: 0 }, 1, false],
    [{ live: 0, closing: 1, reserved: 0 }, 1, false],
    [{ live: 0, closing: 0, reserved: 1 }, 1, false],
    [{ live: 2, closing: 1, reserved: 0 }, 4, true],
    [{ live: 2, closing: 1, reserved: 1 }, 4, false],
    [{ live: 5, closing: 0, reserved: 0 }, 4, false],
  ] as const)("%o under %i: %s", (counts, maxLive, expected) => {
    expect(fits(counts, maxLive)).toBe(expected);
  });
});

/** A pool stand-in: live sessions by name; `evict` moves one to closing, as the pool does. */
class Host implements SlotHost {
  readonly live = new Map<ConversationKey, Occupant>();
  readonly evicted: string[] = [];
  slots!: ProcessSlots;
  liveCount = () => this.live.size;
  has = (k: ConversationKey) => this.live.has(k);
  occupants = () => [...this.live.values()];
  evict(k: ConversationKey) {
    this.live.delete(k);
    this.evicted.push(parseConversationKey(k)?.contextId ?? "?");
    this.slots.closingStarted();
  }
  add(name: string, o: Partial<Occupant> = {}) {
    this.slots.claim();
    this.live.set(key(name), { key: key(name), busy: true, lastUsed: 0, idleSince: 0, ...o });
  }
  idle(name: string, lastUsed: number) {
    this.live.set(key(name), { key: key(name), busy: false, lastUsed, idleSince: 0 });
    this.slots.idle();
  }
}

const noTimers: Timers = { setTimeout: () => undefined, clearTimeout: () => undefined };

function slots(maxLive: number): Host {
  const host = new Host();
  host.slots = new ProcessSlots(
    { maxLive, minIdleBeforeEvictMs: 0, now: () => 0, timers: noTimers },
    host,
  );
  return host;
}

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

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
