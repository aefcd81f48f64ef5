// Longer than ~300 lines on purpose: the timeline assembler is one state machine per API message
// (placeholder → streaming → complete | aborted) fed by partial and complete frames in any order,
// and its reconciliation rules read best side by side; the frame shapes it consumes are in
// normalized-event.ts.
import type { Logger } from "pino";
import {
  contentBlocks,
  textOf,
  type AssistantEvent,
  type NormalizedEvent,
  type StreamEvent,
} from "./normalize.js";

import {
  appendDelta,
  concat,
  matchSlot,
  toPublic,
  type AssistantState,
  type AssistantTimelineEntry,
  type EntryState,
  type HistoryMessage,
  type TimelineEntry,
  type TimelineSource,
  type UserState,
} from "./timeline-entries.js";

export type {
  AssistantTimelineEntry,
  HistoryMessage,
  TimelineEntry,
  TimelineSource,
  UserTimelineEntry,
} from "./timeline-entries.js";

const pendingKey = (streamKey: string) => `pending:${streamKey}`;

/**
 * Entries kept in memory: past this, finished ones (of runs no longer active) are dropped down to
 * `TRIM_TO`, so a session's memory does not grow with its turns. What is dropped is in the
 * runtime's transcript, which `streamHistory` reads it back from.
 */
export const KEPT_ENTRIES = 256;
const TRIM_TO = 192;
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
  private dropped = false;

  constructor(
    private readonly logger: Logger,
    private readonly onUpdate: (entry: TimelineEntry) => void = () => undefined,
  ) {}

  snapshot(): TimelineEntry[] {
    return [...this.entries.values()].sort((a, b) => a.order - b.order).map(toPublic);
  }

  /** Entries were dropped (`trim`): the snapshot is the latest part of the conversation only. */
  get trimmed(): boolean {
    return this.dropped;
  }

  /** Entries in memory. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops the oldest finished entries beyond `KEPT_ENTRIES` (never one still streaming, nor one
   * of a run `active` says is under way).
   */
  trim(active: (runId: string) => boolean): void {
    if (this.entries.size <= KEPT_ENTRIES) return;
    const oldestFirst = [...this.entries.values()].sort((a, b) => a.order - b.order);
    let excess = this.entries.size - TRIM_TO;
    for (const e of oldestFirst) {
      if (excess <= 0) break;
      const finished = e.kind === "user" || e.status === "complete" || e.status === "aborted";
      if (!finished || (e.runId !== undefined && active(e.runId))) continue;
      this.entries.delete(e.key);
      this.dropped = true;
      excess--;
    }
    this.logger.debug({ kept: this.entries.size }, "timeline: trimmed");
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
   * with them: it is taken up to the first prompt this process sent (or one of `liveUuids`), the
   * rest is live already.
   */
  seedHistory(messages: readonly HistoryMessage[], liveUuids?: ReadonlySet<string>): void {
    const live = (m: HistoryMessage) =>
      liveUuids?.has(m.uuid) === true || this.entries.get(m.uuid)?.source === "live";
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

/**
 * The whole conversation when the live timeline was trimmed: the transcript's messages up to the
 * first live prompt still in memory, assembled as history (without the entries still in memory),
 * then the live entries. Dropped live entries come back from the transcript as `history`.
 */
export function withTranscript(
  transcript: readonly HistoryMessage[],
  live: readonly TimelineEntry[],
  logger: Logger,
): TimelineEntry[] {
  const userUuids = new Set(live.flatMap((e) => (e.kind === "user" ? [e.uuid] : [])));
  const messageIds = new Set(live.flatMap((e) => (e.kind === "assistant" ? [e.messageId] : [])));
  const past = new TimelineAssembler(logger);
  past.seedHistory(transcript, userUuids);
  const earlier = past
    .snapshot()
    .filter((e) => (e.kind === "user" ? !userUuids.has(e.uuid) : !messageIds.has(e.messageId)));
  return [...earlier, ...live];
}
