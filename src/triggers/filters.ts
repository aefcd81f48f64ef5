import type { TriggerFilters } from "../config/triggers-schema.js";
import type { TriggerEvent } from "./event.js";
import type { VerifyKind } from "./verify.js";

/** GitHub's test delivery, sent when a webhook is created: acknowledged, never a task. Pure. */
export const isPing = (kind: VerifyKind, event: TriggerEvent): boolean =>
  kind === "github" && event.type === "ping";

/**
 * Whether an event starts a task: every filter the trigger sets must pass (docs/triggers.md
 * "Filters"). Pure; the reason names the filter, never the payload's text.
 */
export function filterEvent(
  filters: TriggerFilters | undefined,
  event: TriggerEvent,
): { pass: true } | { pass: false; reason: string } {
  if (filters === undefined) return { pass: true };
  const fail = (reason: string) => ({ pass: false as const, reason });
  const { events, actions, labels, commentPrefix, authorAssociations } = filters;
  if (events !== undefined && !(event.type !== undefined && events.includes(event.type))) {
    return fail("event type not in filters.events");
  }
  if (actions !== undefined && !(event.action !== undefined && actions.includes(event.action))) {
    return fail("action not in filters.actions");
  }
  if (labels !== undefined && !event.labels.some((l) => labels.includes(l))) {
    return fail("no label of filters.labels");
  }
  if (commentPrefix !== undefined && !event.comment?.trimStart().startsWith(commentPrefix)) {
    return fail("no comment starting with filters.commentPrefix");
  }
  if (
    authorAssociations !== undefined &&
    !(event.authorAssociation !== undefined && authorAssociations.includes(event.authorAssociation))
  ) {
    return fail("author association not in filters.authorAssociations");
  }
  return { pass: true };
}
