import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { RunStreamEvent } from "../../claude/index.js";
import { AssistantTextArtifact, type Coalescing } from "./assistant-text.js";
import type { TaskRef } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import { capInput, capText, DEFAULT_TOOL_OUTPUT_BYTES } from "../../contract/tool-io.js";
import type { TaskChannel } from "../channel/task-channel.js";

/**
 * What one run of a task shows the client, per docs/protocol.md's event contract: its text as the
 * `response-<runId>` artifact, streamed, a `tool_use` status per tool call (with its input; a
 * subagent's with `parentToolUseId`) and a `tool_result` status with its output (each handed to
 * `progress`: its task decides when it goes out, not while the task is parked).
 */
export class RunOutput {
  private readonly text: AssistantTextArtifact;
  private readonly release: () => void;
  /** The tool calls seen, by id: a result names only the id. */
  private readonly toolNames = new Map<string, string>();

  constructor(
    private readonly ref: TaskRef,
    runId: string,
    channel: TaskChannel,
    private readonly progress: (status: TaskStatusUpdateEvent) => void,
    coalescing?: Coalescing,
    /** `artifacts.maxToolOutputBytes`: the cap of a call's input strings and output; 0: neither is shown. */
    private readonly toolBytes = DEFAULT_TOOL_OUTPUT_BYTES,
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
    // A subagent's calls (inside a `Task`/`Agent` call) too, marked with that call's id, so a
    // client can nest them under it.
    if (event.kind === "assistant") {
      const parent = event.parentToolUseId ?? undefined;
      for (const block of event.content) {
        if (block.type !== "tool_use") continue;
        this.toolNames.set(block.id, block.name);
        const io = this.toolBytes > 0 ? capInput(block.input, this.toolBytes) : undefined;
        this.progress(status.toolUse(this.ref, block.name, block.id, io, parent));
      }
    }
    if (event.kind === "user") {
      const parent = event.parentToolUseId ?? undefined;
      // A second tool_use status, of the same call, once the runtime says its sandbox refused it.
      for (const result of event.toolResults) {
        const name = this.toolNames.get(result.toolUseId);
        if (name !== undefined && this.toolBytes > 0) {
          const output = capText(result.text ?? "", this.toolBytes);
          this.progress(
            status.toolResult(this.ref, name, result.toolUseId, result.isError, output, parent),
          );
        }
        if (result.sandbox === undefined) continue;
        this.progress(
          status.sandboxRefused(this.ref, name ?? "Bash", result.toolUseId, result.sandbox),
        );
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

  /** Its run's frame naming this tool call was handled (its `tool_use` status is out or held). */
  hasSeenToolUse(toolUseId: string): boolean {
    return this.toolNames.has(toolUseId);
  }

  /** Closes the text streamed so far (idempotent). */
  finish(): void {
    this.release();
    this.text.finish();
  }
}
