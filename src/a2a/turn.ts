import { TaskState } from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { ClaudeSession, RunStreamEvent, UserPrompt } from "../claude/index.js";
import { AssistantTextArtifact } from "./assistant-text.js";
import { fileArtifact, type FileChange } from "./file-artifacts.js";
import { KIND, kindStatus, plainStatus, statusUpdate } from "./messages.js";
import type { TaskPublisher } from "./task-publisher.js";

/**
 * One A2A task turn = one foreground run of the context's Claude session. Maps the run's events to
 * the README's event contract: `tool_use` status per tool call, the assistant's text as artifact
 * chunks, a file artifact per created or modified file, then `result` and exactly one terminal
 * status.
 */
export class TaskTurn {
  private iterator: AsyncIterator<RunStreamEvent> | undefined;
  private canceled = false;
  private text: AssistantTextArtifact | undefined;

  constructor(
    private readonly pub: TaskPublisher,
    private readonly session: ClaudeSession,
    private readonly prompt: UserPrompt,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<void> {
    if (this.canceled) return;
    const stream = this.session.stream(this.prompt);
    const log = this.logger.child({ runId: stream.runId });
    // One artifact per turn: a resumed task's next turn streams into a new one.
    this.text = new AssistantTextArtifact(this.pub.ref, `response-${stream.runId}`, (e) =>
      this.pub.artifact(e),
    );
    this.iterator = stream[Symbol.asyncIterator]();
    this.pub.status(statusUpdate(this.pub.ref, TaskState.TASK_STATE_WORKING));
    for (;;) {
      const next = await this.iterator.next();
      if (next.done) break;
      if (this.handle(next.value)) return;
    }
    if (!this.canceled) {
      log.warn("run stream ended without a terminal event");
      this.fail("The Claude run ended without a result.");
    }
  }

  /** Stops the run (interrupting it if it started) and closes the text artifact. */
  cancel(): void {
    if (this.canceled) return;
    this.canceled = true;
    this.text?.finish();
    void this.iterator?.return?.();
  }

  /** From the session's PostToolUse hook while this turn holds the context. */
  async onFileChanged(change: FileChange): Promise<void> {
    if (this.canceled || this.pub.isTerminal) return;
    try {
      const artifact = await fileArtifact(change);
      this.pub.artifact({
        taskId: this.pub.ref.taskId,
        contextId: this.pub.ref.contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      });
    } catch (err) {
      this.logger.warn({ err, path: change.path }, "file artifact could not be built");
    }
  }

  /** Returns true when the event ended the turn. */
  private handle(event: RunStreamEvent): boolean {
    const ref = this.pub.ref;
    switch (event.kind) {
      case "run_completed":
        this.text?.finish();
        if (event.text !== "") {
          this.pub.status(kindStatus(ref, TaskState.TASK_STATE_WORKING, KIND.result, event.text));
        }
        this.pub.status(statusUpdate(ref, TaskState.TASK_STATE_COMPLETED));
        return true;
      case "run_failed":
        this.fail(event.reason);
        return true;
      case "run_interrupted":
        if (this.canceled) return true;
        this.fail(`Claude's run was interrupted: ${event.reason}`);
        return true;
      case "assistant":
        if (event.parentToolUseId === null) {
          for (const block of event.content) {
            if (block.type !== "tool_use") continue;
            this.pub.status(
              kindStatus(
                ref,
                TaskState.TASK_STATE_WORKING,
                KIND.toolUse,
                `Calling tool ${block.name}`,
                {
                  toolName: block.name,
                  toolUseId: block.id,
                },
              ),
            );
          }
        }
        this.text?.onEvent(event);
        return false;
      default:
        this.text?.onEvent(event);
        return false;
    }
  }

  private fail(reason: string): void {
    this.text?.finish();
    this.pub.status(plainStatus(this.pub.ref, TaskState.TASK_STATE_FAILED, reason));
  }
}
