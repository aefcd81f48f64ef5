import { randomUUID } from "node:crypto";
import type { TriggerEvent } from "./event.js";

/**
 * The event of a firing an operator asked for (`claude-a2a triggers fire`, the console's "Fire
 * now", `POST <base>/triggers/<name>/fire`): no sender and no payload, so the template's
 * `{{event}}` is "manual", its payload variables "(none)", and its conversation a new one.
 */

/** The delivery ids of manual firings start so (each is new: it is never a retry). */
export const MANUAL_DELIVERY_PREFIX = "manual-";

export function manualEvent(id: string = randomUUID()): TriggerEvent {
  return {
    deliveryId: `${MANUAL_DELIVERY_PREFIX}${id}`,
    type: "manual",
    action: undefined,
    labels: [],
    comment: undefined,
    authorAssociation: undefined,
    subject: undefined,
  };
}
