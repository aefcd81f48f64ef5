import { TaskState, type Message, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { ExecutionEventBus } from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { RunStream, RunStreamEvent } from "../claude/index.js";
import type { SessionLease } from "../sessions/pool.js";
import type { Timers } from "../timers.js";
import { AssistantTextArtifact } from "./assistant-text.js";
import { FileDelivery } from "./content-modes.js";
import type { Ticket } from "./context-queue.js";
import { DenialLedger, type DenialVerdict } from "./denials.js";
import { fileArtifact, type FileChange } from "./file-artifacts.js";
import { toUserPrompt, type InboxFile, type PromptPlan } from "./input.js";
import { promptContent, questionsOf, type Answer, type PendingPrompt } from "./interaction.js";
import {
  INITIAL_PHASE,
  transition,
  turnStops,
  type LifecycleEvent,
  type TaskPhase,
} from "./lifecycle.js";
import {
  agentMessage,
  dataPart,
  KIND,
  kindStatus,
  plainStatus,
  resumedStatus,
  statusUpdate,
  textPart,
  type TaskRef,
} from "./messages.js";
import { PromptQueue, type PromptEntry } from "./prompts.js";
import type { TaskChannel } from "./task-channel.js";

export interface TurnPolicy {
  readonly permissionPrompts: "input-required" | "deny";
  readonly maxPermissionDenials: number;
  readonly inputTimeoutMs: number | undefined;
}

/** Where attachments go: the workspace's inbox (a seam, so a test can hold a write). */
export interface Inbox {
  write(cwd: string, files: readonly InboxFile[]): Promise<void>;
  /** Removes what was written for a task that ended before Claude saw it. */
  remove(cwd: string, taskId: string): Promise<void>;
}

/** What a task needs from the server around it. */
export interface TaskEnvironment {
  readonly cwd: string;
  readonly policy: TurnPolicy;
  readonly timers: Timers;
  readonly inbox: Inbox;
  acquire(contextId: string): SessionLease;
  /** From now on, prompts and file changes of `runId` reach this task. */
  own(runId: string, task: ServerTask): void;
  disown(runId: string): void;
}

export const QUEUED_TEXT =
  "Queued: another task is running in this context; this one starts when it ends.";

const DENY_FOR_STOP: PermissionResult = {
  behavior: "deny",
  message: "The task was stopped.",
  interrupt: true,
};
const DENY_TASK_OVER: PermissionResult = {
  behavior: "deny",
  message: "The task that owned this request has ended; no client can answer it.",
};
const DENY_WITHDRAWN: PermissionResult = {
  behavior: "deny",
  message: "The request was withdrawn.",
};

/**
 * One A2A task: one foreground run of its context's Claude session, over one or more A2A turns
 * (a turn stops when the task parks in input-required or ends). Its state is a `TaskPhase`
 * (`lifecycle.ts`); every step asks `transition` first, and every step after an await re-checks
 * the phase, so a task that ended takes no further step and publishes nothing more. It maps its
 * run's events to the README's event contract and applies loop protection.
 */
export class ServerTask {
  private current: TaskPhase = INITIAL_PHASE;
  private readonly prompts = new PromptQueue();
  private readonly ledger: DenialLedger;
  private readonly turnWaiters: (() => void)[] = [];
  private readonly endedGate: Promise<void>;
  private openEndedGate!: () => void;
  private lease: SessionLease | undefined;
  private runId: string | undefined;
  private text: AssistantTextArtifact | undefined;
  private timer: unknown;
  /** The input timeout fired while an answer was in flight: it applies if that answer fails. */
  private expired = false;
  /** File artifacts the client accepts; the others are listed in the final answer instead. */
  private readonly files: FileDelivery;

  constructor(
    readonly channel: TaskChannel,
    private readonly plan: PromptPlan,
    private readonly ticket: Ticket,
    private readonly env: TaskEnvironment,
    private readonly logger: Logger,
    /** The creating request's `acceptedOutputModes` (empty: anything), for the task's life. */
    acceptedOutputModes: readonly string[] = [],
  ) {
    this.files = new FileDelivery(acceptedOutputModes);
    this.ledger = new DenialLedger(env.policy.maxPermissionDenials);
    this.endedGate = new Promise((resolve) => (this.openEndedGate = resolve));
  }

  get ref(): TaskRef {
    return this.channel.ref;
  }

  get phase(): TaskPhase {
    return this.current;
  }

  /** Read through a getter so a check after an await is not narrowed away by the one before. */
  private get ended(): boolean {
    return this.current.name === "ended";
  }

  /** Resolves when the attached A2A turn stops: the task parked or ended. */
  whenTurnStops(): Promise<void> {
    if (turnStops(this.current)) return Promise.resolve();
    return new Promise((resolve) => this.turnWaiters.push(resolve));
  }

  /** The task's whole life; resolves when it holds nothing: its run is over, its context free. */
  async run(): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      this.logger.error({ err }, "task: unexpected failure");
      this.fail(`Internal error: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.clearTimer();
      if (!this.ended) this.fail("The Claude run ended without a result.");
      this.prompts.settleAll(DENY_TASK_OVER);
      if (this.runId !== undefined) this.env.disown(this.runId);
      this.lease?.release();
      this.ticket.release();
    }
  }

  /** The client canceled: true if this ended the task (it had not ended already). */
  cancel(bus: ExecutionEventBus): boolean {
    const status = plainStatus(this.ref, TaskState.TASK_STATE_CANCELED, "Task canceled.");
    if (!this.end({ type: "canceled" }, status)) return false;
    this.channel.alsoOn(bus, status);
    return true;
  }

  /** Reserves the shown prompt for one answering message; returns why it cannot. */
  claim(message: Pick<Message, "parts" | "messageId">): string | undefined {
    if (this.ended) return "it has ended";
    if (this.current.name !== "parked") return "it is not waiting for an answer";
    return this.prompts.claim(message);
  }

  /** The claiming request failed before it answered: the prompt waits for another answer. */
  unclaim(messageId: string): void {
    if (this.prompts.unclaim(messageId) && this.expired) this.onTimeout();
  }

  isClaimedBy(messageId: string): boolean {
    return this.current.name === "parked" && this.prompts.claimedBy(messageId);
  }

  /** Hands the claimed answer to the waiting run; the next prompt, if any, is shown at once. */
  answer(message: Pick<Message, "messageId">): void {
    const head = this.prompts.head;
    const claim = head?.claim;
    if (head === undefined || claim?.messageId !== message.messageId) return;
    if (!this.step({ type: "answered" })) return;
    this.clearTimer();
    this.channel.status(resumedStatus(this.ref));
    const verdict = this.verdictFor(head.prompt, claim.answer);
    this.prompts.settle(head, verdict.result);
    if (verdict.stop !== undefined) this.fail(verdict.stop);
    else this.showNext();
  }

  /** The runtime's `canUseTool` for a tool call of this task's run. */
  canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      title?: string | undefined;
      decisionReason?: string | undefined;
    },
  ): Promise<PermissionResult> {
    if (this.ended) return Promise.resolve(DENY_FOR_STOP);
    let prompt: PendingPrompt;
    if (toolName === "AskUserQuestion") {
      const questions = questionsOf(input);
      if (questions === undefined) {
        const message = "AskUserQuestion needs a non-empty questions list.";
        return Promise.resolve({ behavior: "deny", message });
      }
      prompt = { kind: "question", toolName, input, questions };
    } else {
      const verdict =
        this.ledger.repeated(toolName, input) ??
        (this.env.policy.permissionPrompts === "deny"
          ? this.ledger.deny(toolName, input, "permission prompts are turned off on this server")
          : undefined);
      if (verdict !== undefined) {
        if (verdict.stop !== undefined) this.fail(verdict.stop);
        return Promise.resolve(verdict.result);
      }
      const { title, decisionReason } = options;
      prompt = { kind: "permission", toolName, input, title, decisionReason };
    }
    const { entry, result } = this.prompts.add(prompt);
    // The runtime gave up the call (its turn was interrupted, the process ended).
    options.signal.addEventListener("abort", () => this.withdraw(entry), { once: true });
    this.showNext();
    return result;
  }

  /** A file the run created or modified (PostToolUse hook). */
  async onFileChanged(change: FileChange): Promise<void> {
    if (this.ended) return;
    let artifact;
    try {
      artifact = await fileArtifact(change);
    } catch (err) {
      this.logger.warn({ err, path: change.path }, "file artifact could not be built");
      return;
    }
    if (this.ended || !this.files.admit(artifact)) return;
    const { taskId, contextId } = this.ref;
    const update = { taskId, contextId, artifact, append: false, lastChunk: true };
    this.channel.artifact({ ...update, metadata: undefined });
  }

  private async start(): Promise<void> {
    if (!this.ticket.immediate) {
      this.channel.status(
        kindStatus(this.ref, TaskState.TASK_STATE_SUBMITTED, KIND.queued, QUEUED_TEXT),
      );
    }
    await Promise.race([this.ticket.ready, this.endedGate]);
    if (!this.step({ type: "granted" })) return;
    if (this.plan.files.length > 0) {
      try {
        await this.env.inbox.write(this.env.cwd, this.plan.files);
      } catch (err) {
        this.logger.error({ err }, "inbox write failed");
        this.fail(`Attached files could not be saved: ${String(err)}`);
        return;
      }
      if (this.ended) {
        // Canceled while its attachments were written: Claude never sees them, nothing keeps them.
        await this.env.inbox.remove(this.env.cwd, this.ref.taskId).catch((err: unknown) => {
          this.logger.warn({ err }, "inbox cleanup failed");
        });
        return;
      }
    }
    this.lease = this.env.acquire(this.ref.contextId);
    const stream = this.lease.session.stream(toUserPrompt(this.plan));
    this.runId = stream.runId;
    this.env.own(stream.runId, this);
    this.text = new AssistantTextArtifact(this.ref, `response-${stream.runId}`, (e) =>
      this.channel.artifact(e),
    );
    await this.consume(stream);
  }

  /** Reads the run to its terminal event, whatever the task's phase: only then is it over. */
  private async consume(stream: RunStream): Promise<void> {
    for await (const event of stream) this.handle(event);
  }

  private handle(event: RunStreamEvent): void {
    switch (event.kind) {
      case "prompt_sent":
        if (this.step({ type: "prompt_sent" })) {
          this.channel.status(statusUpdate(this.ref, TaskState.TASK_STATE_WORKING));
          this.showNext();
        }
        return;
      case "run_completed":
        this.complete(event.text);
        return;
      case "run_failed":
        this.fail(event.reason);
        return;
      case "run_interrupted":
        this.fail(`Claude's run was interrupted: ${event.reason}`);
        return;
      case "assistant":
        if (this.ended) return;
        if (event.parentToolUseId === null) {
          for (const block of event.content) {
            if (block.type !== "tool_use") continue;
            this.channel.status(
              kindStatus(
                this.ref,
                TaskState.TASK_STATE_WORKING,
                KIND.toolUse,
                `Calling tool ${block.name}`,
                { toolName: block.name, toolUseId: block.id },
              ),
            );
          }
        }
        this.text?.onEvent(event);
        return;
      default:
        if (!this.ended) this.text?.onEvent(event);
        return;
    }
  }

  private complete(text: string): void {
    if (this.ended) return;
    // Prompts of subagents that outlived the turn: no client will be asked them any more.
    this.prompts.settleAll(DENY_TASK_OVER);
    if (!this.step({ type: "completed" })) return;
    this.clearTimer();
    this.text?.finish();
    const shown = this.files.finalText(text);
    if (shown !== "") {
      this.channel.status(kindStatus(this.ref, TaskState.TASK_STATE_WORKING, KIND.result, shown));
    }
    this.channel.status(statusUpdate(this.ref, TaskState.TASK_STATE_COMPLETED));
  }

  private fail(reason: string): void {
    this.end(
      { type: "failed", reason },
      plainStatus(this.ref, TaskState.TASK_STATE_FAILED, reason),
    );
  }

  /** Ends the task now: the text so far is closed, one terminal status, every prompt settled. */
  private end(event: LifecycleEvent, status: TaskStatusUpdateEvent): boolean {
    if (!this.step(event)) return false;
    this.clearTimer();
    this.text?.finish();
    this.channel.status(status);
    this.prompts.settleAll(DENY_FOR_STOP);
    if (this.runId !== undefined) this.lease?.session.cancelRun(this.runId, "task ended");
    return true;
  }

  /** Shows the oldest prompt the client has not seen, if the task is running. */
  private showNext(): void {
    const head = this.prompts.head;
    if (head === undefined || head.shown || this.current.name !== "running") return;
    if (!this.step({ type: "input_needed" })) return;
    head.shown = true;
    const { text, data } = promptContent(head.prompt);
    const message = agentMessage(this.ref, [textPart(text), dataPart(data)], { kind: data.kind });
    this.channel.status(statusUpdate(this.ref, TaskState.TASK_STATE_INPUT_REQUIRED, message));
    this.armTimer();
  }

  private withdraw(entry: PromptEntry): void {
    const wasShown = entry.shown && this.prompts.head === entry;
    if (!this.prompts.settle(entry, DENY_WITHDRAWN)) return;
    this.logger.debug({ toolName: entry.prompt.toolName }, "task: prompt withdrawn by the runtime");
    if (!wasShown || !this.step({ type: "answered" })) return;
    this.clearTimer();
    this.channel.status(statusUpdate(this.ref, TaskState.TASK_STATE_WORKING));
    this.showNext();
  }

  private verdictFor(prompt: PendingPrompt, answer: Answer): DenialVerdict {
    if (answer.kind === "question") {
      const updatedInput = { ...prompt.input, answers: answer.answers };
      return { result: { behavior: "allow", updatedInput }, stop: undefined };
    }
    if (answer.decision.decision === "allow") {
      return { result: { behavior: "allow", updatedInput: prompt.input }, stop: undefined };
    }
    return this.ledger.deny(prompt.toolName, prompt.input, answer.decision.reason);
  }

  private armTimer(): void {
    const ms = this.env.policy.inputTimeoutMs;
    if (ms === undefined) return;
    this.expired = false;
    this.timer = this.env.timers.setTimeout(() => {
      this.timer = undefined;
      this.onTimeout();
    }, ms);
  }

  private onTimeout(): void {
    if (this.current.name !== "parked") return;
    if (this.prompts.head?.claim !== undefined) {
      // An answer is on its way: it wins, unless its request fails (see unclaim).
      this.expired = true;
      return;
    }
    const ms = this.env.policy.inputTimeoutMs ?? 0;
    this.fail(
      `Stopped: no answer came within ${ms} ms (claude.inputTimeoutMs); the request was denied.`,
    );
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.env.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.expired = false;
  }

  /** Takes one lifecycle step, if the lifecycle allows it; logs every move and every refusal. */
  private step(event: LifecycleEvent): boolean {
    const next = transition(this.current, event);
    if (!next.ok) {
      this.logger.debug({ event: event.type, why: next.why }, "task: step refused");
      return false;
    }
    this.logger.debug({ from: this.current.name, to: next.phase.name }, "task: phase");
    this.current = next.phase;
    if (next.phase.name === "ended") this.openEndedGate();
    if (turnStops(next.phase)) for (const wake of this.turnWaiters.splice(0)) wake();
    return true;
  }
}
