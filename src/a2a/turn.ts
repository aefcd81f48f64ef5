import type { Message } from "@a2a-js/sdk";
import { TaskState } from "@a2a-js/sdk";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { ClaudeSession, RunStreamEvent, UserPrompt } from "../claude/index.js";
import { AssistantTextArtifact } from "./assistant-text.js";
import { fileArtifact, type FileChange } from "./file-artifacts.js";
import {
  denialKey,
  denialMessage,
  parseAnswer,
  type Answer,
  promptContent,
  questionsOf,
  type PendingPrompt,
} from "./interaction.js";
import {
  agentMessage,
  dataPart,
  KIND,
  kindStatus,
  plainStatus,
  statusUpdate,
  textPart,
} from "./messages.js";
import type { TaskPublisher } from "./task-publisher.js";

/** Why an A2A turn stopped: Claude waits for an answer, or the task is over. */
export type TurnStop = "parked" | "done";

export interface TurnPolicy {
  readonly permissionPrompts: "input-required" | "deny";
  readonly maxPermissionDenials: number;
  readonly inputTimeoutMs: number | undefined;
}

interface Parked {
  readonly prompt: PendingPrompt;
  readonly resolve: (result: PermissionResult) => void;
  readonly timer: NodeJS.Timeout | undefined;
  /** The answer of the message that reserved this prompt, parsed once. */
  claimed: Answer | undefined;
}

const DENY_FOR_STOP: PermissionResult = {
  behavior: "deny",
  message: "The task was stopped.",
  interrupt: true,
};

/**
 * One A2A task = one foreground run of its context's Claude session, over one or more A2A turns:
 * a turn ends when the run ends, or when Claude waits for the client (a question or a permission
 * prompt), in which case the task parks in input-required and the next message resumes the SAME
 * run. Maps the run's events to the README's event contract and applies loop protection.
 */
export class TaskTurn {
  private iterator: AsyncIterator<RunStreamEvent> | undefined;
  private text: AssistantTextArtifact | undefined;
  private canceled = false;
  /** Our own reason for stopping the task: it, not the interrupted run's error, is published. */
  private stopReason: string | undefined;
  private parked: Parked | undefined;
  private readonly denied = new Set<string>();
  private denials = 0;
  private signalStop: ((stop: TurnStop) => void) | undefined;
  private loopDone: Promise<void> | undefined;

  constructor(
    private pub: TaskPublisher,
    private readonly session: ClaudeSession,
    private readonly prompt: UserPrompt,
    private readonly policy: TurnPolicy,
    private readonly logger: Logger,
  ) {}

  /** Starts the run; resolves when this A2A turn stops. `finished` resolves when the task does. */
  start(): Promise<TurnStop> {
    const stop = this.nextStop();
    this.loopDone = this.loop().finally(() => this.signalStop?.("done"));
    return stop;
  }

  /** Resolves when the run is over and nothing more will be published. */
  get finished(): Promise<void> {
    return this.loopDone ?? Promise.resolve();
  }

  get isParked(): boolean {
    return this.parked !== undefined;
  }

  /** Events go to `pub` from now on (a resumed turn's bus, or a store writer while parked). */
  attach(pub: TaskPublisher): void {
    this.pub = pub;
  }

  /**
   * Reserves the pending prompt for this message. Returns an error text (nothing is reserved)
   * when the task waits for nothing, another message already answers it, or the answer is
   * unreadable.
   */
  claim(message: Pick<Message, "parts">): string | undefined {
    const parked = this.parked;
    if (parked === undefined) return "it is not waiting for an answer";
    if (parked.claimed) return "another message is already answering it";
    try {
      parked.claimed = parseAnswer(parked.prompt, message);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }

  unclaim(): void {
    if (this.parked) this.parked.claimed = undefined;
  }

  /** Hands the client's answer to the waiting run; resolves when this A2A turn stops. */
  resume(message: Pick<Message, "parts">): Promise<TurnStop> {
    const parked = this.parked;
    if (parked === undefined) return Promise.resolve("done");
    const stop = this.nextStop();
    const answer = parked.claimed ?? parseAnswer(parked.prompt, message);
    this.settle(this.resultFor(parked.prompt, answer));
    return stop;
  }

  /** Stops the task: a pending prompt is denied, the run interrupted, the text closed. */
  cancel(): void {
    if (this.canceled) return;
    this.canceled = true;
    this.text?.finish();
    this.settle(DENY_FOR_STOP);
    void this.iterator?.return?.();
  }

  /** The session's `canUseTool`, while this task holds the context. */
  async canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    options: { signal: AbortSignal; title?: string; decisionReason?: string },
  ): Promise<PermissionResult> {
    if (this.canceled) return DENY_FOR_STOP;
    let prompt: PendingPrompt;
    if (toolName === "AskUserQuestion") {
      const questions = questionsOf(input);
      if (questions === undefined) {
        return { behavior: "deny", message: "AskUserQuestion needs a non-empty questions list." };
      }
      prompt = { kind: "question", toolName, input, questions };
    } else {
      const key = denialKey(toolName, input);
      if (this.denied.has(key)) {
        // The model ignored the instruction not to ask again: stop instead of looping forever.
        this.stopReason = `Stopped: Claude requested the same denied permission again (${toolName}).`;
        return { behavior: "deny", message: denialMessage(undefined), interrupt: true };
      }
      if (this.policy.permissionPrompts === "deny") {
        return this.deny(key, toolName, "permission prompts are turned off on this server");
      }
      prompt = {
        kind: "permission",
        toolName,
        input,
        title: options.title,
        decisionReason: options.decisionReason,
      };
    }
    return this.park(prompt, options.signal);
  }

  /** From the session's PostToolUse hook while this task holds the context. */
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

  private nextStop(): Promise<TurnStop> {
    return new Promise((resolve) => {
      this.signalStop = (stop) => {
        this.signalStop = undefined;
        resolve(stop);
      };
    });
  }

  private park(prompt: PendingPrompt, signal: AbortSignal): Promise<PermissionResult> {
    return new Promise((resolve) => {
      const timeout = this.policy.inputTimeoutMs;
      const timer =
        timeout === undefined
          ? undefined
          : setTimeout(() => {
              this.stopReason = `Stopped: no answer came within ${timeout} ms (claude.inputTimeoutMs); the request was denied.`;
              this.settle(DENY_FOR_STOP);
            }, timeout);
      this.parked = { prompt, resolve, timer, claimed: undefined };
      // The run was interrupted (e.g. the session closed) while waiting: nobody will answer.
      signal.addEventListener("abort", () => this.settle(DENY_FOR_STOP), { once: true });
      const { text, data } = promptContent(prompt);
      const ref = this.pub.ref;
      const message = agentMessage(ref, [textPart(text), dataPart(data)], { kind: data.kind });
      this.pub.status(statusUpdate(ref, TaskState.TASK_STATE_INPUT_REQUIRED, message));
      this.signalStop?.("parked");
    });
  }

  private settle(result: PermissionResult): void {
    const parked = this.parked;
    if (parked === undefined) return;
    this.parked = undefined;
    if (parked.timer) clearTimeout(parked.timer);
    parked.resolve(result);
  }

  private resultFor(prompt: PendingPrompt, answer: Answer): PermissionResult {
    if (answer.kind === "question") {
      return { behavior: "allow", updatedInput: { ...prompt.input, answers: answer.answers } };
    }
    if (answer.decision.decision === "allow") {
      return { behavior: "allow", updatedInput: prompt.input };
    }
    return this.deny(
      denialKey(prompt.toolName, prompt.input),
      prompt.toolName,
      answer.decision.reason,
    );
  }

  /** Records a denial; the one that reaches the limit also stops the run. */
  private deny(key: string, toolName: string, reason: string | undefined): PermissionResult {
    this.denied.add(key);
    this.denials++;
    const max = this.policy.maxPermissionDenials;
    if (this.denials < max) return { behavior: "deny", message: denialMessage(reason) };
    this.stopReason = `Stopped: ${this.denials} permission request(s) were denied in this task (claude.maxPermissionDenials is ${max}); the last was for ${toolName}.`;
    return { behavior: "deny", message: denialMessage(reason), interrupt: true };
  }

  private async loop(): Promise<void> {
    if (this.canceled) return;
    const stream = this.session.stream(this.prompt);
    const log = this.logger.child({ runId: stream.runId });
    // One artifact per run.
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
      this.fail(this.stopReason ?? "The Claude run ended without a result.");
    }
  }

  /** Returns true when the event ended the task. */
  private handle(event: RunStreamEvent): boolean {
    const ref = this.pub.ref;
    switch (event.kind) {
      case "run_completed":
        if (this.stopReason !== undefined) {
          this.fail(this.stopReason);
          return true;
        }
        this.text?.finish();
        if (event.text !== "") {
          this.pub.status(kindStatus(ref, TaskState.TASK_STATE_WORKING, KIND.result, event.text));
        }
        this.pub.status(statusUpdate(ref, TaskState.TASK_STATE_COMPLETED));
        return true;
      case "run_failed":
        this.fail(this.stopReason ?? event.reason);
        return true;
      case "run_interrupted":
        if (this.canceled) return true;
        this.fail(this.stopReason ?? `Claude's run was interrupted: ${event.reason}`);
        return true;
      case "assistant":
        if (event.parentToolUseId === null) {
          for (const block of event.content) {
            if (block.type !== "tool_use") continue;
            const text = `Calling tool ${block.name}`;
            this.pub.status(
              kindStatus(ref, TaskState.TASK_STATE_WORKING, KIND.toolUse, text, {
                toolName: block.name,
                toolUseId: block.id,
              }),
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
