// Longer than ~300 lines on purpose: the timeline assembler is one state machine per API message
// (placeholder → streaming → complete | aborted) fed by partial and complete frames in any order,
// and its reconciliation rules read best side by side; the frame shapes it consumes are in
// normalized-event.ts.
import type { Logger } from "pino";
import {
  contentBlocks,
  textOf,
  type AssistantEvent,
  type BlockDelta,
  type ContentBlock,
  type NormalizedEvent,
  type StreamEvent,
} from "./normalize.js";

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

interface Slot {
  block: ContentBlock;
  /** Came from a complete assistant frame: later deltas for it are duplicates. */
  final: boolean;
  json?: string;
}

interface AssistantState {
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

interface UserState {
  kind: "user";
  key: string;
  uuid: string;
  runId?: string;
  text: string;
  source: TimelineSource;
  order: number;
}

type EntryState = AssistantState | UserState;

const pendingKey = (streamKey: string) => `pending:${streamKey}`;
/** History sorts before everything live, whenever it finished loading. */
const HISTORY_BASE = -1_000_000_000;

/**
 * The conversation as it happened, keyed by API message id and fed by every assistant frame
 * whichever run owns it, so routing can never drop an assistant message from it.
 */
export class TimelineAssembler {
  private readonly entries = new Map<string, EntryState>();
  private order = 0;
  private historyOrder = HISTORY_BASE;

  constructor(
    private readonly logger: Logger,
    private readonly onUpdate: (entry: TimelineEntry) => void = () => undefined,
  ) {}

  snapshot(): TimelineEntry[] {
    return [...this.entries.values()].sort((a, b) => a.order - b.order).map(toPublic);
  }

  get(messageId: string): AssistantTimelineEntry | undefined {
    const e = this.entries.get(messageId);
    return e?.kind === "assistant" ? (toPublic(e) as AssistantTimelineEntry) : undefined;
  }

  addUserPrompt(
    uuid: string,
    text: string,
    runId?: string,
    source: TimelineSource = "live",
    announce = true,
  ): void {
    if (this.entries.has(uuid)) return;
    const entry: UserState = {
      kind: "user",
      key: uuid,
      uuid,
      text,
      source,
      order: source === "history" ? this.historyOrder++ : this.order++,
    };
    if (runId !== undefined) entry.runId = runId;
    this.entries.set(uuid, entry);
    if (announce) this.onUpdate(toPublic(entry));
  }

  /**
   * An interrupted run's messages that never got a complete frame were cut off, even when the
   * runtime closed their stream with a synthesized message_stop: mark them aborted, not complete.
   */
  markRunInterrupted(runId: string): void {
    for (const entry of this.entries.values()) {
      if (entry.kind !== "assistant" || entry.runId !== runId || entry.status === "aborted")
        continue;
      if (entry.source !== "live" || entry.slots.some((slot) => slot?.final === true)) continue;
      entry.status = "aborted";
      this.logger.debug({ messageId: entry.messageId, runId }, "timeline: cut off by interrupt");
      this.onUpdate(toPublic(entry));
    }
  }

  apply(event: NormalizedEvent, runId: string | undefined): void {
    if (event.kind === "assistant") this.applyAssistant(event, runId, "live");
    else if (event.kind === "stream") this.applyStream(event, runId);
  }

  /**
   * Puts a resumed session's earlier messages before everything live, without an update per
   * entry (nobody follows the past as it is read). Read after live turns, the transcript goes on
   * with them: it is taken up to the first prompt this process sent, the rest is live already.
   */
  seedHistory(messages: readonly HistoryMessage[]): void {
    const live = (m: HistoryMessage) => this.entries.get(m.uuid)?.source === "live";
    for (const m of messages) {
      if (m.type === "user" && live(m)) return;
      const message = (typeof m.message === "object" && m.message !== null ? m.message : {}) as {
        id?: unknown;
        content?: unknown;
      };
      const blocks = contentBlocks(message.content);
      if (m.type === "user") {
        // Tool results are conversation plumbing; the timeline keeps what the user said.
        if (blocks.some((b) => b.type === "tool_result") || m.parent_tool_use_id !== null) continue;
        this.addUserPrompt(m.uuid, textOf(blocks), undefined, "history", false);
      } else if (m.type === "assistant" && typeof message.id === "string") {
        this.applyAssistant(
          {
            kind: "assistant",
            uuid: m.uuid,
            messageId: message.id,
            parentToolUseId: m.parent_tool_use_id,
            content: blocks,
            aborted: false,
            userMessageUuids: [],
          },
          undefined,
          "history",
          false,
        );
      }
    }
  }

  private assistantEntry(
    key: string,
    messageId: string | undefined,
    parentToolUseId: string | null,
    runId: string | undefined,
    source: TimelineSource,
  ): AssistantState {
    const existing = this.entries.get(key);
    if (existing?.kind === "assistant") {
      if (existing.runId === undefined && runId !== undefined) existing.runId = runId;
      return existing;
    }
    const entry: AssistantState = {
      kind: "assistant",
      key,
      messageId,
      parentToolUseId,
      slots: [],
      status: messageId === undefined ? "placeholder" : "streaming",
      streamed: false,
      uuids: [],
      source,
      order: source === "history" ? this.historyOrder++ : this.order++,
    };
    if (runId !== undefined) entry.runId = runId;
    this.entries.set(key, entry);
    this.logger.debug({ messageId, key, runId }, "timeline: entry created");
    return entry;
  }

  private applyAssistant(
    ev: AssistantEvent,
    runId: string | undefined,
    source: TimelineSource,
    announce = true,
  ) {
    const entry = this.assistantEntry(
      ev.messageId,
      ev.messageId,
      ev.parentToolUseId,
      runId,
      source,
    );
    // The same frame seen twice (history and live, or a replay) must not add its block twice.
    if (ev.uuid !== undefined && entry.uuids.includes(ev.uuid)) return;
    for (const block of ev.content)
      entry.slots[matchSlot(entry.slots, block)] = { block, final: true };
    if (ev.uuid !== undefined) entry.uuids.push(ev.uuid);
    if (ev.aborted) entry.status = "aborted";
    else if (!entry.streamed) entry.status = "complete";
    this.logger.debug(
      { messageId: ev.messageId, runId, blocks: ev.content.length },
      "timeline: complete frame reconciled",
    );
    if (announce) this.onUpdate(toPublic(entry));
  }

  private applyStream(ev: StreamEvent, runId: string | undefined): void {
    const part = ev.part;
    if (part.type === "ping" || part.type === "other") return;
    const key = ev.messageId ?? pendingKey(ev.streamKey);
    const created = !this.entries.has(key);
    const entry = this.assistantEntry(key, ev.messageId, ev.parentToolUseId, runId, "live");
    entry.streamed = true;
    switch (part.type) {
      case "message_start":
        this.adoptPlaceholder(entry, ev.streamKey);
        if (entry.status === "placeholder") entry.status = "streaming";
        break;
      case "content_block_start": {
        const slot = entry.slots[part.index];
        // A copy: deltas grow it in place, and the event's own block is the consumers'.
        if (slot?.final !== true)
          entry.slots[part.index] = { block: { ...part.block }, final: false };
        break;
      }
      case "content_block_delta":
        appendDelta(entry.slots, part.index, part.delta);
        break;
      case "content_block_stop": {
        const slot = entry.slots[part.index];
        if (slot !== undefined && !slot.final && slot.block.type === "tool_use" && slot.json) {
          try {
            slot.block = { ...slot.block, input: JSON.parse(slot.json) as unknown };
          } catch {
            // A cut-off tool input stays raw; the complete frame, if any, replaces it.
          }
        }
        break;
      }
      case "message_delta":
        break;
      case "message_stop":
        if (entry.status !== "aborted") entry.status = "complete";
        this.logger.debug({ messageId: ev.messageId, runId }, "timeline: message finalized");
        break;
    }
    // A delta only grows a block: its update goes out with the next frame of the message (its
    // block's stop at the latest), not per delta, which would copy the whole entry thousands of
    // times per answer. A delta that opens an entry (before its message_start) still announces it.
    if (created || part.type !== "content_block_delta") this.onUpdate(toPublic(entry));
  }

  /** Frames that arrived before their message_start were held under the stream's key. */
  private adoptPlaceholder(entry: AssistantState, streamKey: string): void {
    const key = pendingKey(streamKey);
    const held = this.entries.get(key);
    if (held?.kind !== "assistant" || held === entry) return;
    held.slots.forEach((slot, i) => {
      if (slot === undefined) return;
      const mine = entry.slots[i];
      if (mine === undefined) entry.slots[i] = slot;
      else if (!mine.final) entry.slots[i] = { ...mine, block: concat(slot.block, mine.block) };
    });
    entry.order = Math.min(entry.order, held.order);
    if (entry.runId === undefined && held.runId !== undefined) entry.runId = held.runId;
    this.entries.delete(key);
    this.logger.debug(
      { messageId: entry.messageId, streamKey },
      "timeline: placeholder reconciled",
    );
  }
}

/** Where a complete block belongs: its tool use id, else the first streamed block of its type. */
function matchSlot(slots: readonly (Slot | undefined)[], block: ContentBlock): number {
  if (block.type === "tool_use") {
    const byId = slots.findIndex((s) => s?.block.type === "tool_use" && s.block.id === block.id);
    if (byId >= 0) return byId;
  }
  const byType = slots.findIndex((s) => s !== undefined && !s.final && s.block.type === block.type);
  return byType >= 0 ? byType : slots.length;
}

function appendDelta(slots: (Slot | undefined)[], index: number, delta: BlockDelta): void {
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

function concat(first: ContentBlock, second: ContentBlock): ContentBlock {
  if (first.type === "text" && second.type === "text") {
    return { type: "text", text: first.text + second.text };
  }
  if (first.type === "thinking" && second.type === "thinking") {
    return { type: "thinking", thinking: first.thinking + second.thinking };
  }
  return second;
}

function toPublic(e: EntryState): TimelineEntry {
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
