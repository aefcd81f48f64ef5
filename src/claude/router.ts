import type { NormalizedEvent } from "./normalize.js";
import type { TurnStateName } from "./turn-state.js";

/** The foreground run that holds (or waits for) the runtime's turn. */
export interface ForegroundSlot {
  runId: string;
  userMessageUuid: string;
  /** True once a frame stamped with our uuid arrived: the runtime's current turn is ours. */
  bound: boolean;
}

export interface RouteContext {
  turnState: TurnStateName;
  foreground: ForegroundSlot | undefined;
  /** The run whose main-thread content the runtime's current turn has produced (until its result). */
  turnOwner: string | undefined;
  runForSend(uuid: string): string | undefined;
  runForTask(taskId: string): string | undefined;
  runForToolUse(toolUseId: string): string | undefined;
  runForMessage(messageId: string): string | undefined;
}

export type RouteReason =
  | "foreground"
  | "user_message_uuid"
  | "task_id"
  | "parent_message_id"
  | "message_id"
  | "turn_owner";

export type RouteDecision =
  | { kind: "run"; runId: string; reason: RouteReason }
  | { kind: "new_autonomous"; reason: "no_identifier" }
  | {
      kind: "metadata";
      reason: "metadata_event" | "orphan";
      /** Who the event is about (task events), for attribution only: it drives no lifecycle. */
      attributedRunId?: string;
    };

export interface EventIdentifiers {
  /** Sends the frame answers (runtime stamps), or the uuid of an echoed send. */
  sends: readonly string[];
  taskId?: string;
  parentToolUseId?: string;
  /** Tool uses a tool_result answers. */
  toolUseIds: readonly string[];
  messageId?: string;
  /** Main-thread content: part of the runtime's current turn rather than of a subagent. */
  topLevel: boolean;
}

/** Events that never own a run: turn boundaries, task bookkeeping, session state, unknowns. */
export function isMetadataEvent(event: NormalizedEvent): boolean {
  switch (event.kind) {
    case "assistant":
    case "user":
    case "result":
      return false;
    case "stream":
      return event.part.type === "ping" || event.part.type === "other";
    case "init":
    case "task_started":
    case "task_updated":
    case "task_progress":
    case "task_notification":
    case "background_tasks_changed":
    case "session_state_changed":
    case "api_retry":
    case "metadata":
      return true;
  }
}

/** Built field by field, without spreads: the pump asks for it once per runtime message. */
export function identifiersOf(event: NormalizedEvent): EventIdentifiers {
  switch (event.kind) {
    case "assistant": {
      const ids = content(event.userMessageUuids, [], event.parentToolUseId);
      if (event.agentId !== undefined) ids.taskId = event.agentId;
      ids.messageId = event.messageId;
      return ids;
    }
    case "stream": {
      const ids = content(event.userMessageUuids, [], event.parentToolUseId);
      if (event.messageId !== undefined) ids.messageId = event.messageId;
      return ids;
    }
    case "user": {
      const sends = event.uuid === undefined ? [] : [event.uuid];
      const toolUseIds = event.toolResults.map((r) => r.toolUseId);
      const ids = content(sends, toolUseIds, event.parentToolUseId);
      if (event.agentId !== undefined) ids.taskId = event.agentId;
      return ids;
    }
    case "result":
      return { sends: event.userMessageUuids, toolUseIds: [], topLevel: true };
    case "task_started":
    case "task_updated":
    case "task_progress":
    case "task_notification":
      return { sends: [], toolUseIds: [], topLevel: false, taskId: event.taskId };
    case "init":
    case "background_tasks_changed":
    case "session_state_changed":
    case "api_retry":
    case "metadata":
      return { sends: [], toolUseIds: [], topLevel: false };
  }
}

/** A content frame's identifiers: main-thread content has no parent tool use. */
function content(
  sends: readonly string[],
  toolUseIds: readonly string[],
  parentToolUseId: string | null,
): EventIdentifiers {
  const ids: EventIdentifiers = { sends, toolUseIds, topLevel: parentToolUseId === null };
  if (parentToolUseId !== null) ids.parentToolUseId = parentToolUseId;
  return ids;
}

/**
 * The single routing decision point. Order:
 *  0. metadata events route nowhere (task events are attributed, never owned);
 *  1. a runtime stamp naming a known send is the runtime's own statement of ownership;
 *  2. turnState=foreground with the turn bound to the foreground run → the foreground run;
 *  3. identifiers: task_id, parent tool use (parent_message_id), message_id;
 *  4. continuation of the runtime's current turn (it runs until its result);
 *  5. otherwise a new autonomous run (only for assistant output: a stray user/result frame cannot
 *     start work, and making it a run would leave that run active forever).
 * No time windows. Before the foreground turn is bound, main-thread content without our stamp
 * belongs to a turn the runtime started before our send (its first frame would carry our stamp).
 */
export function route(
  event: NormalizedEvent,
  ctx: RouteContext,
  ids: EventIdentifiers = identifiersOf(event),
): RouteDecision {
  if (isMetadataEvent(event)) {
    const attributedRunId = attribution(ids, event, ctx);
    return attributedRunId === undefined
      ? { kind: "metadata", reason: "metadata_event" }
      : { kind: "metadata", reason: "metadata_event", attributedRunId };
  }

  const fg = ctx.foreground;
  for (const uuid of ids.sends) {
    if (fg !== undefined && uuid === fg.userMessageUuid) {
      return { kind: "run", runId: fg.runId, reason: "user_message_uuid" };
    }
  }
  for (const uuid of ids.sends) {
    const owner = ctx.runForSend(uuid);
    if (owner !== undefined) return { kind: "run", runId: owner, reason: "user_message_uuid" };
  }

  if (ctx.turnState === "foreground" && fg?.bound === true) {
    return { kind: "run", runId: fg.runId, reason: "foreground" };
  }

  const byId = byIdentifier(ids, ctx);
  if (byId !== undefined) return byId;

  // Subagent frames whose parent we never saw are still part of the turn that is running.
  if (ctx.turnOwner !== undefined)
    return { kind: "run", runId: ctx.turnOwner, reason: "turn_owner" };
  if (event.kind === "assistant" || event.kind === "stream") {
    return { kind: "new_autonomous", reason: "no_identifier" };
  }
  return { kind: "metadata", reason: "orphan" };
}

function byIdentifier(ids: EventIdentifiers, ctx: RouteContext): RouteDecision | undefined {
  if (ids.taskId !== undefined) {
    const runId = ctx.runForTask(ids.taskId);
    if (runId !== undefined) return { kind: "run", runId, reason: "task_id" };
  }
  const toolUses = ids.parentToolUseId === undefined ? ids.toolUseIds : [ids.parentToolUseId];
  for (const toolUseId of toolUses) {
    const runId = ctx.runForToolUse(toolUseId);
    if (runId !== undefined) return { kind: "run", runId, reason: "parent_message_id" };
  }
  if (ids.messageId !== undefined) {
    const runId = ctx.runForMessage(ids.messageId);
    if (runId !== undefined) return { kind: "run", runId, reason: "message_id" };
  }
  return undefined;
}

function attribution(
  ids: EventIdentifiers,
  event: NormalizedEvent,
  ctx: RouteContext,
): string | undefined {
  if (ids.taskId !== undefined) {
    const byTask = ctx.runForTask(ids.taskId);
    if (byTask !== undefined) return byTask;
  }
  const toolUseId = "toolUseId" in event ? event.toolUseId : undefined;
  return toolUseId === undefined ? undefined : ctx.runForToolUse(toolUseId);
}
