import { describe, expect, it } from "vitest";
import { ContextQueue, type Ticket } from "../../../../src/a2a/routing/context-queue.js";
import { conversationKey } from "../../../../src/identity/conversation.js";

const key = (contextId: string) => conversationKey({ owner: "unknown", contextId });

/** Lets every pending promise callback run (no timer involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A ticket plus whether its `ready` has resolved yet. */
function track(ticket: Ticket) {
  const t = { ticket, granted: false };
  void ticket.ready.then(() => (t.granted = true));
  return t;
}

/** A queue where `a`, `b` and `c` entered context `ctx` in that order. */
function threeInLine() {
  const q = new ContextQueue();
  const a = track(q.enter(key("ctx")));
  const b = track(q.enter(key("ctx")));
  const c = track(q.enter(key("ctx")));
  return { q, a, b, c };
}

describe("ContextQueue", () => {
  it("grants the first ticket of a context at once and makes the next ones wait", async () => {
    const { q, a, b, c } = threeInLine();
    await settle();
    expect([a.ticket.immediate, b.ticket.immediate, c.ticket.immediate]).toEqual([
      true,
      false,
      false,
    ]);
    expect([a.granted, b.granted, c.granted]).toEqual([true, false, false]);
    expect(q.depth(key("ctx"))).toBe(3);
  });

  it("grants waiters first come, first served as the head releases", async () => {
    const q = new ContextQueue();
    const order: string[] = [];
    const tickets = ["a", "b", "c"].map((name) => {
      const t = q.enter(key("ctx"));
      void t.ready.then(() => order.push(name));
      return t;
    });
    await settle();
    expect(order).toEqual(["a"]);
    tickets[0]?.release();
    await settle();
    expect(order).toEqual(["a", "b"]);
    tickets[1]?.release();
    await settle();
    expect(order).toEqual(["a", "b", "c"]);
    tickets[2]?.release();
    expect(q.depth(key("ctx"))).toBe(0);
  });

  it("lets a waiter in the middle leave without granting anyone", async () => {
    const { q, a, b, c } = threeInLine();
    b.ticket.release();
    await settle();
    expect([a.granted, b.granted, c.granted]).toEqual([true, false, false]);
    expect(q.depth(key("ctx"))).toBe(2);
    a.ticket.release();
    await settle();
    expect(c.granted).toBe(true);
    expect(b.granted).toBe(false);
    expect(q.depth(key("ctx"))).toBe(1);
  });

  it("lets the last waiter leave without granting anyone", async () => {
    const q = new ContextQueue();
    const a = track(q.enter(key("ctx")));
    const b = track(q.enter(key("ctx")));
    b.ticket.release();
    await settle();
    expect(q.depth(key("ctx"))).toBe(1);
    const c = track(q.enter(key("ctx")));
    expect(c.ticket.immediate).toBe(false);
    a.ticket.release();
    await settle();
    expect(c.granted).toBe(true);
  });

  it("keeps contexts independent", async () => {
    const q = new ContextQueue();
    const a1 = track(q.enter(key("a")));
    const a2 = track(q.enter(key("a")));
    const b1 = track(q.enter(key("b")));
    await settle();
    expect(b1.ticket.immediate).toBe(true);
    expect([a1.granted, a2.granted, b1.granted]).toEqual([true, false, true]);
    b1.ticket.release();
    await settle();
    expect(a2.granted).toBe(false);
    expect(q.depth(key("a"))).toBe(2);
    expect(q.depth(key("b"))).toBe(0);
  });

  it("makes a second release of the same ticket harmless", async () => {
    const { q, a, b, c } = threeInLine();
    a.ticket.release();
    a.ticket.release();
    await settle();
    expect([b.granted, c.granted]).toEqual([true, false]);
    expect(q.depth(key("ctx"))).toBe(2);
    b.ticket.release();
    b.ticket.release();
    await settle();
    expect(c.granted).toBe(true);
    expect(q.depth(key("ctx"))).toBe(1);
  });

  it("starts afresh once a context's line is empty, and old tickets stay inert", async () => {
    const q = new ContextQueue();
    const a = q.enter(key("ctx"));
    a.release();
    expect(q.depth(key("ctx"))).toBe(0);
    const b = track(q.enter(key("ctx")));
    const c = track(q.enter(key("ctx")));
    expect(b.ticket.immediate).toBe(true);
    a.release();
    await settle();
    expect([b.granted, c.granted]).toEqual([true, false]);
    expect(q.depth(key("ctx"))).toBe(2);
  });
});
