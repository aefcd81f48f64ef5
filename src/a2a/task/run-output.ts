import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { RunStreamEvent } from "../../claude/index.js";
import { AssistantTextArtifact, type Coalescing } from "./assistant-text.js";
import type { TaskRef } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import type { TaskChannel } from "../handler/task-channel.js";

/**
 * What one run of a task shows the client, per docs/protocol.md's event contract: its text as the
 * `response-<runId>` artifact, streamed, and a `tool_use` status per main-thread tool call
 * (handed to `progress`: its task decides when it goes out, not while the task is parked).
 */
export class RunOutput {
  private readonly text: AssistantTextArtifact;
  private readonly release: () => void;
  /** The main thread's tool calls by id: a result names only the id. */
  private readonly toolNames = new Map<string, string>();

  constructor(
    private readonly ref: TaskRef,
    runId: string,
    channel: TaskChannel,
    private readonly progress: (status: TaskStatusUpdateEvent) => void,
    coalescing?: Coalescing,
  ) {
    this.text = new AssistantTextArtifact(
      ref,
      `response-${runId}`,
      (e) => channel.textChunk(e),
      coalescing,
    );
    this.release = channel.holdsText(() => this.text.flush());
  }

  onEvent(event: RunStreamEvent): void {
    if (event.kind === "assistant" && event.parentToolUseId === null) {
      for (const block of event.content) {
        if (block.type !== "tool_use") continue;
        this.toolNames.set(block.id, block.name);
        this.progress(status.toolUse(this.ref, block.name, block.id));
      }
    }
    if (event.kind === "user" && event.parentToolUseId === null) {
      // A second tool_use status, of the same call, once the runtime says its sandbox refused it.
      for (const result of event.toolResults) {
        if (result.sandbox === undefined) continue;
        const name = this.toolNames.get(result.toolUseId) ?? "Bash";
        this.progress(status.sandboxRefused(this.ref, name, result.toolUseId, result.sandbox));
      }
    }
    switch (event.kind) {
      case "prompt_sent":
      case "steered":
      case "run_completed":
      case "run_failed":
      case "run_interrupted":
        return;
      default:
        this.text.onEvent(event);
    }
  }

  /** Closes the text streamed so far (idempotent). */
  finish(): void {
    this.release();
    this.text.finish();
  }
}
