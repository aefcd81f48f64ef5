import type { ConversationKey } from "../identity/conversation.js";
import { ProcessSlots, type ProcessSlotsOptions, type SlotHost } from "./process-slots.js";

/**
 * `sessions.maxLive` across several workspaces: one cap for the whole machine, each workspace's
 * pool a member of it, and optionally a cap of its own inside it. The machine's slots see every
 * pool's sessions (keys qualified by workspace, since two workspaces may hold the same
 * conversation key), so a conversation of one workspace may have an idle session of another
 * closed for it, exactly as within one pool.
 */

/** What a pool asks of its process slots (`ProcessSlots`, or a workspace's view of the machine's). */
export type PoolSlots = Pick<
  ProcessSlots,
  | "processCount"
  | "waiting"
  | "whenFree"
  | "wouldWait"
  | "forgo"
  | "claim"
  | "closingStarted"
  | "closingEnded"
  | "holdStarted"
  | "holdEnded"
  | "idle"
  | "close"
  | "trim"
  | "wake"
  | "hasRoom"
>;

/** How a pool gets its slots, given what they need of it. */
export type SlotsFactory = (host: SlotHost) => PoolSlots;

const SEPARATOR = "\u0000";

export class MachineSlots {
  private readonly hosts = new Map<string, SlotHost>();
  private readonly slots: ProcessSlots;

  constructor(private readonly options: ProcessSlotsOptions) {
    const hosts = this.hosts;
    const split = (qualified: ConversationKey): [SlotHost | undefined, ConversationKey] => {
      const at = qualified.indexOf(SEPARATOR);
      return [hosts.get(qualified.slice(0, at)), qualified.slice(at + 1) as ConversationKey];
    };
    this.slots = new ProcessSlots(options, {
      liveCount: () => [...hosts.values()].reduce((n, h) => n + h.liveCount(), 0),
      has: (qualified) => {
        const [host, key] = split(qualified);
        return host?.has(key) ?? false;
      },
      occupants: () =>
        [...hosts.entries()].flatMap(([name, host]) =>
          host.occupants().map((o) => ({ ...o, key: qualify(name, o.key) })),
        ),
      evict: (qualified, reason) => {
        const [host, key] = split(qualified);
        host?.evict(key, reason);
      },
    });
  }

  /**
   * The slots factory of one workspace's pool: the machine's, seen with that workspace's keys,
   * behind a cap of its own when `maxLive` is given.
   */
  forWorkspace(name: string, maxLive?: number): SlotsFactory {
    return (host) => {
      this.hosts.set(name, host);
      const machine = this.view(name, host);
      if (maxLive === undefined) return machine;
      return chained(new ProcessSlots({ ...this.options, maxLive }, host), machine);
    };
  }

  private view(name: string, host: SlotHost): PoolSlots {
    const slots = this.slots;
    const prefix = `${name}${SEPARATOR}`;
    return {
      // This workspace's processes and waiters: each workspace's metrics count its own.
      get processCount() {
        return host.liveCount();
      },
      get waiting() {
        return slots.waitingWhere((key) => key.startsWith(prefix));
      },
      whenFree: (key, signal) => slots.whenFree(qualify(name, key), signal),
      wouldWait: (key) => slots.wouldWait(qualify(name, key)),
      forgo: () => slots.forgo(),
      claim: () => slots.claim(),
      closingStarted: () => slots.closingStarted(),
      closingEnded: () => slots.closingEnded(),
      holdStarted: () => slots.holdStarted(),
      holdEnded: () => slots.holdEnded(),
      idle: () => slots.idle(),
      // Shutdown: every workspace stops at once, so the first pool closing closes them all.
      close: (reason) => slots.close(reason),
      trim: () => slots.trim(),
      wake: () => slots.wake(),
      hasRoom: () => slots.hasRoom(),
    };
  }
}

const qualify = (name: string, key: ConversationKey): ConversationKey =>
  `${name}${SEPARATOR}${key}` as ConversationKey;

/**
 * A workspace's own cap, then the machine's: a conversation holds a slot of both (its own first,
 * given back if the machine's wait fails), and every change reaches both.
 */
function chained(own: PoolSlots, machine: PoolSlots): PoolSlots {
  return {
    get processCount() {
      return own.processCount;
    },
    get waiting() {
      return own.waiting + machine.waiting;
    },
    async whenFree(key, signal) {
      await own.whenFree(key, signal);
      try {
        await machine.whenFree(key, signal);
      } catch (err) {
        own.forgo();
        throw err;
      }
    },
    wouldWait: (key) => own.wouldWait(key) || machine.wouldWait(key),
    forgo: () => {
      own.forgo();
      machine.forgo();
    },
    claim: () => {
      own.claim();
      machine.claim();
    },
    closingStarted: () => {
      own.closingStarted();
      machine.closingStarted();
    },
    closingEnded: () => {
      own.closingEnded();
      machine.closingEnded();
    },
    holdStarted: () => {
      own.holdStarted();
      machine.holdStarted();
    },
    holdEnded: () => {
      own.holdEnded();
      machine.holdEnded();
    },
    idle: () => {
      own.idle();
      machine.idle();
    },
    close: (reason) => {
      own.close(reason);
      machine.close(reason);
    },
    trim: () => {
      own.trim();
      machine.trim();
    },
    wake: () => {
      own.wake();
      machine.wake();
    },
    hasRoom: () => own.hasRoom() && machine.hasRoom(),
  };
}
