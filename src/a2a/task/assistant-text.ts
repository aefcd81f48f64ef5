import type { TaskArtifactUpdateEvent } from "@a2a-js/sdk";
import type { NormalizedEvent } from "../../claude/index.js";
import { OneShot, type Timers } from "../../common/timers.js";
import { KIND } from "../../contract/kinds.js";
import { artifact, artifactUpdate, textPart, type TaskRef } from "../../contract/messages.js";

/** How streamed text is gathered before it is published (`streaming.*` in the config). */
export interface Coalescing {
  readonly timers: Timers;
  /** Longest a delta waits before it is published (ms). */
  readonly flushMs: number;
  /** Text gathered up to this many characters is published at once. */
  readonly maxChunkChars: number;
}

/**
 * Claude's text of one turn, streamed as chunks of one artifact while it is generated: the first
 * chunk opens it (`append: false`), the next ones append, and `finish()` closes it with the whole
 * text (`append: false, lastChunk: true`) so the stored artifact is one clean part.
 * Only the main thread's text counts: a subagent's text is its own business.
 *
 * With `coalescing`, the model's deltas are gathered: the first goes out at once (the first chunk
 * is what a client waits for), later ones in one append per `flushMs` (or `maxChunkChars`), and
 * `flush()` sends what waits before any other event of the task, so the order is kept. The SDK's
 * task store re-reads and re-writes the task per event: one event per delta would cost the square
 * of the answer's length.
 */
export class AssistantTextArtifact {
  private text = "";
  private opened = false;
  private currentMessage: string | undefined;
  /** Messages whose text arrived as deltas: their complete frame must not add it twice. */
  private readonly streamed = new Set<string>();

  /** Text added but not published yet. */
  private pending = "";
  private readonly timer: OneShot | undefined;

  constructor(
    private readonly ref: TaskRef,
    private readonly artifactId: string,
    private readonly publish: (event: TaskArtifactUpdateEvent) => void,
    private readonly coalescing?: Coalescing,
  ) {
    this.timer = coalescing && new OneShot(coalescing.timers);
  }

  /** Publishes the text gathered so far, if any. */
  flush(): void {
    this.timer?.clear();
    if (this.pending === "" || this.closed) return;
    const chunk = this.pending;
    this.pending = "";
    this.publish(this.update(chunk, this.opened, false));
    this.opened = true;
  }

  get hasText(): boolean {
    return this.text !== "";
  }

  onEvent(event: NormalizedEvent): void {
    if (event.kind === "stream" && event.parentToolUseId === null) {
      const part = event.part;
      if (part.type === "message_start") this.currentMessage = part.messageId;
      if (part.type === "content_block_delta" && part.delta.type === "text" && part.delta.text) {
        const id = event.messageId ?? this.currentMessage;
        if (id !== undefined) this.streamed.add(id);
        this.add(part.delta.text, id);
      }
      return;
    }
    // Without partial frames (or for a message that streamed none), the complete frame carries it.
    // The message the runtime makes up about a failed login is not Claude's answer: the task's
    // failed status says what to do, in words a client can act on. (A rejected prompt's message
    // stays: it says what the API refused.)
    if (
      event.kind === "assistant" &&
      event.parentToolUseId === null &&
      event.cause !== "authentication_failed"
    ) {
      if (this.streamed.has(event.messageId)) return;
      for (const block of event.content) {
        if (block.type === "text" && block.text) this.add(block.text, event.messageId);
      }
    }
  }

  /** Closes the artifact with the whole text; later text is ignored. Idempotent. */
  finish(): void {
    if (this.closed) return;
    // What is still gathered goes out first: the appends alone always assemble the whole text.
    this.flush();
    this.closed = true;
    if (!this.opened) return;
    this.publish(this.update(this.text, false, true));
  }

  private closed = false;

  private lastMessage: string | undefined;

  private add(text: string, messageId: string | undefined): void {
    if (this.closed) return;
    // Separate the texts of successive API messages (e.g. before and after a tool call).
    const separator =
      this.text !== "" && messageId !== this.lastMessage && !this.text.endsWith("\n") ? "\n\n" : "";
    this.lastMessage = messageId;
    const chunk = separator + text;
    this.text += chunk;
    this.pending += chunk;
    const c = this.coalescing;
    if (c === undefined || !this.opened || this.pending.length >= c.maxChunkChars) {
      this.flush();
    } else if (this.timer !== undefined && !this.timer.armed) {
      this.timer.arm(c.flushMs, () => this.flush());
    }
  }

  private update(text: string, append: boolean, lastChunk: boolean): TaskArtifactUpdateEvent {
    const art = artifact(this.artifactId, "response", [textPart(text)], {
      kind: KIND.assistantText,
    });
    // Kind on the artifact only: event metadata would be merged into the task's own metadata.
    return artifactUpdate(this.ref, art, { append, lastChunk });
  }
}
