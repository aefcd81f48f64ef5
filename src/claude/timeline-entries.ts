/**
 * The timeline's entry shapes, public and internal, and the pure block work of its assembler:
 * where a complete block goes, how a delta grows one, and the copy handed to readers.
 */
import { textOf, type BlockDelta, type ContentBlock } from "./normalize.js";

export type AssistantStatus = "placeholder" | "streaming" | "complete" | "aborted";
export type TimelineSource = "history" | "live";

export interface AssistantTimelineEntry {
  kind: "assistant";
  /** Undefined only for a placeholder whose message_start has not arrived yet. */
  messageId: string | undefined;
  runId?: string;
  parentToolUseId: string | null;
  content: ContentBlock[];
  text: string;
  status: AssistantStatus;
  /** SDK uuids of the complete assistant frames merged here (one per content block). */
  uuids: string[];
  source: TimelineSource;
}

export interface UserTimelineEntry {
  kind: "user";
  uuid: string;
  runId?: string;
  text: string;
  source: TimelineSource;
}

export type TimelineEntry = AssistantTimelineEntry | UserTimelineEntry;

/** A transcript line as `getSessionMessages` returns it. */
export interface HistoryMessage {
  type: string;
  uuid: string;
  message: unknown;
  parent_tool_use_id: string | null;
}

export interface Slot {
  block: ContentBlock;
  /** Came from a complete assistant frame: later deltas for it are duplicates. */
  final: boolean;
  json?: string;
}

export interface AssistantState {
  kind: "assistant";
  key: string;
  messageId: string | undefined;
  runId?: string;
  parentToolUseId: string | null;
  slots: (Slot | undefined)[];
  status: AssistantStatus;
  streamed: boolean;
  uuids: string[];
  source: TimelineSource;
  order: number;
}

export interface UserState {
  kind: "user";
  key: string;
  uuid: string;
  runId?: string;
  text: string;
  source: TimelineSource;
  order: number;
}

export type EntryState = AssistantState | UserState;

/** Where a complete block belongs: its tool use id, else the first streamed block of its type. */
export function matchSlot(slots: readonly (Slot | undefined)[], block: ContentBlock): number {
  if (block.type === "tool_use") {
    const byId = slots.findIndex((s) => s?.block.type === "tool_use" && s.block.id === block.id);
    if (byId >= 0) return byId;
  }
  const byType = slots.findIndex((s) => s !== undefined && !s.final && s.block.type === block.type);
  return byType >= 0 ? byType : slots.length;
}

export function appendDelta(slots: (Slot | undefined)[], index: number, delta: BlockDelta): void {
  const slot = slots[index] ?? { block: emptyBlockFor(delta), final: false };
  slots[index] = slot;
  if (slot.final) return;
  // In place: the blocks are the assembler's own (`toPublic` hands out copies).
  const b = slot.block;
  switch (delta.type) {
    case "text":
      if (b.type === "text") b.text += delta.text;
      break;
    case "thinking":
      if (b.type === "thinking") b.thinking += delta.thinking;
      break;
    case "input_json":
      slot.json = (slot.json ?? "") + delta.partialJson;
      break;
    case "other":
      break;
  }
}

function emptyBlockFor(delta: BlockDelta): ContentBlock {
  switch (delta.type) {
    case "text":
      return { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "" };
    case "input_json":
      return { type: "tool_use", id: "", name: "", input: undefined };
    case "other":
      return { type: "other", blockType: delta.deltaType };
  }
}

export function concat(first: ContentBlock, second: ContentBlock): ContentBlock {
  if (first.type === "text" && second.type === "text") {
    return { type: "text", text: first.text + second.text };
  }
  if (first.type === "thinking" && second.type === "thinking") {
    return { type: "thinking", thinking: first.thinking + second.thinking };
  }
  return second;
}

export function toPublic(e: EntryState): TimelineEntry {
  if (e.kind === "user") {
    const out: UserTimelineEntry = { kind: "user", uuid: e.uuid, text: e.text, source: e.source };
    if (e.runId !== undefined) out.runId = e.runId;
    return out;
  }
  // Copies: the assembler grows its blocks in place as deltas arrive.
  const content = e.slots.flatMap((s) => (s === undefined ? [] : [{ ...s.block }]));
  const out: AssistantTimelineEntry = {
    kind: "assistant",
    messageId: e.messageId,
    parentToolUseId: e.parentToolUseId,
    content,
    text: textOf(content),
    status: e.status,
    uuids: [...e.uuids],
    source: e.source,
  };
  if (e.runId !== undefined) out.runId = e.runId;
  return out;
}
