import { describe, expect, it } from "vitest";
import { holdSlot } from "../../../src/sessions/held-slot.js";
import { MachineSlots, type PoolSlots } from "../../../src/sessions/machine-slots.js";
import { ProcessSlots } from "../../../src/sessions/process-slots.js";
import { key } from "./support/pool.js";
import { settled, SlotStandIn } from "./support/slot-host.js";

/** A process outside the pool (a delivery's reviewer) counted under sessions.maxLive. */
describe("holdSlot", () => {
  const pool = (maxLive: number) => {
    const host = new SlotStandIn<ProcessSlots>();
    host.slots = new ProcessSlots({ maxLive, graceMs: 0, now: () => 0 }, host);
    return host;
  };

  it("takes a free slot and holds it until released: a new conversation waits behind it", async () => {
    const p = pool(1);
    const release = await holdSlot(p.slots);
    expect(p.slots.processCount).toBe(1);
    expect(p.slots.hasRoom()).toBe(false);
    expect(p.slots.wouldWait(key("next"))).toBe(true);
    const next = p.slots.whenFree(key("next"));
    expect(await settled(next)).toBe(false);
    release();
    await next;
    release(); // idempotent: the count stays right
    p.add("next");
    expect(p.slots.processCount).toBe(1);
    expect(p.slots.hasRoom()).toBe(false);
  });

  it("has an idle session closed for it, as a new conversation does, and waits for its exit", async () => {
    const p = pool(1);
    await p.slots.whenFree(key("idle"));
    p.add("idle");
    p.idle("idle");
    const held = holdSlot(p.slots);
    expect(p.evicted).toEqual(["idle"]);
    expect(await settled(held)).toBe(false);
    p.slots.closingEnded();
    const release = await held;
    expect(p.slots.processCount).toBe(1);
    release();
    expect(p.slots.hasRoom()).toBe(true);
  });

  it("never waits on busy sessions (its own task's may be one): it starts over the cap, still counted", async () => {
    const p = pool(2);
    for (const name of ["task", "other"]) {
      await p.slots.whenFree(key(name));
      p.add(name); // a task under review keeps its session busy
    }
    const release = await holdSlot(p.slots);
    expect(p.slots.processCount).toBe(3);
    // Every slot is busy, the reviewer's too: a new conversation would wait (`queued`).
    expect(p.slots.wouldWait(key("next"))).toBe(true);
    // A conversation that comes meanwhile counts it: with "other" idle, that one is closed for it,
    // and it still waits until the reviewer is done or another slot frees.
    p.idle("other");
    const next = p.slots.whenFree(key("next"));
    expect(p.evicted).toEqual(["other"]);
    p.slots.closingEnded();
    expect(await settled(next)).toBe(false);
    release();
    await next;
  });

  it("gives up waiting for an idle session's exit when its signal aborts, holding nothing", async () => {
    const p = pool(1);
    await p.slots.whenFree(key("idle"));
    p.add("idle");
    p.idle("idle");
    const stop = new AbortController();
    const held = holdSlot(p.slots, stop.signal);
    stop.abort();
    await expect(held).rejects.toThrow("aborted");
    expect(p.slots.waiting).toBe(0);
    p.slots.closingEnded();
    expect(p.slots.hasRoom()).toBe(true);
  });

  it("counts against a workspace's own cap and the machine's", async () => {
    const machine = new MachineSlots({ maxLive: 2, graceMs: 0, now: () => 0 });
    const api = new SlotStandIn<PoolSlots>();
    api.slots = machine.forWorkspace("api", 1)(api);
    const web = new SlotStandIn<PoolSlots>();
    web.slots = machine.forWorkspace("web", undefined)(web);
    const release = await holdSlot(api.slots);
    // api's own cap (1) is the reviewer's: its next conversation waits.
    expect(await settled(api.slots.whenFree(key("a1")))).toBe(false);
    await web.slots.whenFree(key("w1"));
    web.add("w1");
    // The machine's two slots: the reviewer's and w1's.
    expect(await settled(web.slots.whenFree(key("w2")))).toBe(false);
    release();
  });
});
