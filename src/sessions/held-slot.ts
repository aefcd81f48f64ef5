import type { ConversationKey } from "../identity/conversation.js";
import type { PoolSlots } from "./machine-slots.js";

let holds = 0;

/**
 * A slot under `sessions.maxLive` for a Claude Code process the pool does not own (a delivery's
 * reviewer), held until the returned release (idempotent). While held it counts as a busy
 * session (`holdStarted`): a conversation that comes meanwhile waits for it, `queued`, or has an
 * idle session closed for it. It gets its slot as a new conversation does (a free one, or an idle
 * session closed for it), except that it never waits for a busy session to end: the busy ones may
 * be the very tasks it serves (a task keeps its session through its review), so that wait might
 * never end. It then starts over the cap, for as long as it runs.
 */
export async function holdSlot(slots: PoolSlots, signal?: AbortSignal): Promise<() => void> {
  // A key no conversation has (they never hold a NUL).
  const key = `\u0000held-${++holds}` as ConversationKey;
  if (!slots.wouldWait(key)) {
    await slots.whenFree(key, signal);
    slots.claim();
  }
  slots.holdStarted();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    slots.holdEnded();
  };
}
