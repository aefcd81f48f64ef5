import type { ConversationKey } from "../../identity/conversation.js";
import type { Ticket } from "../task/environment.js";

export type { Ticket };

interface Waiter {
  readonly grant: () => void;
  released: boolean;
}

/**
 * One A2A task turn at a time per conversation (a caller's context: `conversationKey`), first
 * come first served. A ticket's `ready` resolves when it is the conversation's turn; `release()`
 * (done, failed or canceled while waiting) lets the next one in.
 */
export class ContextQueue {
  private readonly lines = new Map<ConversationKey, Waiter[]>();

  enter(key: ConversationKey): Ticket {
    const line = this.lines.get(key) ?? [];
    this.lines.set(key, line);
    let grant!: () => void;
    const ready = new Promise<void>((resolve) => (grant = resolve));
    const waiter: Waiter = { grant, released: false };
    line.push(waiter);
    const immediate = line.length === 1;
    if (immediate) grant();
    return {
      immediate,
      ready,
      release: () => {
        if (waiter.released) return;
        waiter.released = true;
        const wasHead = line[0] === waiter;
        line.splice(line.indexOf(waiter), 1);
        if (line.length === 0) this.lines.delete(key);
        else if (wasHead) line[0]?.grant();
      },
    };
  }

  /** Tasks holding or waiting for the conversation. */
  depth(key: ConversationKey): number {
    return this.lines.get(key)?.length ?? 0;
  }
}
