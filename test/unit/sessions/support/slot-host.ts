/** A pool stand-in for the slot tests: live sessions by name; `evict` starts closing, as the pool does. */
import {
  parseConversationKey,
  type ConversationKey,
} from "../../../../src/identity/conversation.js";
import type { Occupant, SlotHost } from "../../../../src/sessions/process-slots.js";
import { key } from "./pool.js";

type Slots = { claim(): void; idle(): void; closingStarted(): void };

export class SlotStandIn<S extends Slots> implements SlotHost {
  readonly live = new Map<ConversationKey, Occupant>();
  /** The contexts evicted, in order. */
  readonly evicted: string[] = [];
  slots!: S;
  liveCount = () => this.live.size;
  has = (k: ConversationKey) => this.live.has(k);
  occupants = () => [...this.live.values()];
  evict(k: ConversationKey) {
    this.live.delete(k);
    this.evicted.push(parseConversationKey(k)?.contextId ?? "?");
    this.slots.closingStarted();
  }
  /** A conversation claims its slot and holds a busy session. */
  add(name: string, o: Partial<Occupant> = {}) {
    this.slots.claim();
    this.live.set(key(name), { key: key(name), busy: true, lastUsed: 0, idleSince: 0, ...o });
  }
  idle(name: string, lastUsed = 1) {
    this.live.set(key(name), { key: key(name), busy: false, lastUsed, idleSince: 0 });
    this.slots.idle();
  }
}

/** Whether the promise has settled (either way) once pending callbacks ran. */
export async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}
