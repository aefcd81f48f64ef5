import { describe, expect, it } from "vitest";
import { MachineSlots, type PoolSlots } from "../../../src/sessions/machine-slots.js";
import { key } from "./support/pool.js";
import { settled, SlotStandIn } from "./support/slot-host.js";

/** One workspace's pool stand-in. */
class Pool extends SlotStandIn<PoolSlots> {
  /** A conversation gets its slot, then its (busy) session. */
  async open(name: string): Promise<void> {
    await this.slots.whenFree(key(name));
    this.add(name);
  }
}

function machine(maxLive: number, caps: Record<string, number | undefined>): Record<string, Pool> {
  const slots = new MachineSlots({ maxLive, graceMs: 0, now: () => 0 });
  return Object.fromEntries(
    Object.entries(caps).map(([name, cap]) => {
      const pool = new Pool();
      pool.slots = slots.forWorkspace(name, cap)(pool);
      return [name, pool];
    }),
  );
}

describe("MachineSlots: one sessions.maxLive across workspaces", () => {
  it("a conversation of one workspace waits for the other's busy processes, and gets one of its idle ones", async () => {
    const { api, web } = machine(2, { api: undefined, web: undefined });
    if (!api || !web) throw new Error("pools");
    await api.open("a1");
    await api.open("a2");
    expect(web.slots.wouldWait(key("w1"))).toBe(true);
    const waiting = web.open("w1");
    expect(await settled(waiting)).toBe(false);
    expect(web.slots.waiting).toBe(1);
    expect(api.slots.waiting).toBe(0);

    // An idle session of the other workspace is closed for it; its slot frees when it has exited.
    api.idle("a1");
    expect(api.evicted).toEqual(["a1"]);
    expect(await settled(waiting)).toBe(false);
    api.slots.closingEnded();
    await waiting;
    expect(web.live.has(key("w1"))).toBe(true);
  });

  it("the same conversation key in two workspaces is two conversations", async () => {
    const { api, web } = machine(2, { api: undefined, web: undefined });
    if (!api || !web) throw new Error("pools");
    await api.open("same");
    // Live in api does not make it live in web: web's needs a slot of its own, and there is one.
    expect(web.slots.wouldWait(key("same"))).toBe(false);
    await web.open("same");
    expect(web.slots.wouldWait(key("other"))).toBe(true);
  });

  it("a workspace's own cap holds inside the machine's, without taking slots from the others", async () => {
    const { api, web } = machine(3, { api: 1, web: undefined });
    if (!api || !web) throw new Error("pools");
    await api.open("a1");
    expect(api.slots.wouldWait(key("a2"))).toBe(true);
    const second = api.open("a2");
    expect(await settled(second)).toBe(false);
    // Web still has the two slots the machine has left.
    await web.open("w1");
    await web.open("w2");
    expect(web.slots.wouldWait(key("w3"))).toBe(true);
    // Api's idle session goes for api's waiter (its own cap), and its slot comes back to it.
    api.idle("a1");
    expect(api.evicted).toEqual(["a1"]);
    api.slots.closingEnded();
    await second;
    expect([...api.live.keys()]).toEqual([key("a2")]);
  });
});
