import type { Message } from "@a2a-js/sdk";
import type { ExecutionEventBus } from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { BackgroundTask, ClaudeSession, SteerPriority } from "../../claude/index.js";
import { isRefused } from "../../common/safe-files.js";
import type { ConversationKey } from "../../identity/conversation.js";
import { logFileRefusal } from "../../sandbox/denial-log.js";
import type { TraceSpan } from "../../tracing/tracing.js";
import type { TaskRef } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import { TEXT } from "../../contract/texts.js";
import { fileArtifact, type FileChange } from "../content/file-artifacts.js";
import type { TaskChannel } from "../channel/task-channel.js";
import { DENY_TASK_OVER, type TaskEnvironment, type TaskOrigin } from "./environment.js";
import type { TaskPhase } from "./lifecycle.js";
import { TaskCore } from "./task-core.js";
import { TaskFinish } from "./task-finish.js";
import { TaskInput, type AnsweredPrompt, type ToolCallOptions } from "./task-input.js";
import { TaskRuns } from "./task-runs.js";
import { TaskDelegation, type DelegatingTask } from "./task-delegation.js";
import { TaskDelivery } from "./task-delivery.js";
import { approvalAsk } from "./task-merge.js";
import { TaskStart } from "./task-start.js";
import { TaskSteer } from "./task-steer.js";

export type { AnsweredPrompt } from "./task-input.js";

export interface ServerTaskOptions {
  /** The creating request's `acceptedOutputModes` (empty: anything), for the task's life. */
  readonly acceptedOutputModes?: readonly string[];
  /** The task's span: its runs' spans are its children. */
  readonly span?: TraceSpan;
}

/**
 * One A2A task: the run its client's message started (or, for an autonomous task, the wake it
 * was created for), and the runs its background work causes later, over one or more A2A turns
 * (a turn stops when the task parks in input-required or ends). Its state is a `TaskPhase`
 * (`lifecycle.ts`); every step asks `transition` first, and every step after an await re-checks
 * the phase, so a task that ended takes no further step and publishes nothing more. It maps its
 * runs' events to docs/protocol.md's event contract and applies loop protection.
 *
 * This class is the task's face to the rest of the server (the executor, the run ownership, the
 * request guard); the steps are its collaborators', one per phase, over the state they share
 * (`TaskCore`, `task-core.ts`, the only holder of the phase): getting to Claude (`TaskStart`,
 * task-start.ts), the runs and what they show (`TaskRuns`, task-runs.ts), input requests and
 * answers (`TaskInput`, task-input.ts), the end and what it cost (`TaskFinish`, task-finish.ts).
 * A new feature of a task lands in the collaborator of its phase, or in a new one beside them.
 */
export class ServerTask {
  private readonly core: TaskCore;
  private readonly finish: TaskFinish;
  private readonly input: TaskInput;
  private readonly runs: TaskRuns;
  private readonly starter: TaskStart;
  private readonly steering: TaskSteer;
  private readonly delegating: TaskDelegation;

  constructor(
    readonly channel: TaskChannel,
    private readonly origin: TaskOrigin,
    private readonly env: TaskEnvironment<ServerTask>,
    private readonly logger: Logger,
    /** Its caller's conversation (`conversation.ts`): the key of its session and turn queue. */
    readonly conversation: ConversationKey,
    options: ServerTaskOptions = {},
  ) {
    this.core = new TaskCore(channel, origin, env, logger, conversation, {
      ...options,
      // The input collaborator decides what a timeout means; it exists by the time one fires.
      onInputTimeout: () => this.input.onInputTimeout(),
      own: (runId) => env.own(runId, this),
    });
    this.finish = new TaskFinish(this.core);
    this.input = new TaskInput(this.core, this.finish);
    this.steering = new TaskSteer(this.core);
    this.runs = new TaskRuns(this.core, this.input, this.finish, this.steering);
    this.starter = new TaskStart(this.core, this.runs, this.finish);
    this.delegating = new TaskDelegation(this.core, this.input, this.finish);
    // A delivery's fix turn is a foreground run of the task, as its first one was.
    if (origin.kind === "client" && origin.deliver !== undefined) {
      this.finish.delivery = new TaskDelivery(
        this.core,
        origin.deliver,
        (text) => this.finish.fail(text),
        (stream) => void this.runs.consume(stream, true),
        approvalAsk(
          (request) => this.input.serverAsk(request),
          () => this.core.ended,
        ),
        (usage) => this.finish.addUsage(usage),
      );
    }
  }

  /** What a delegated call of one of its runs sees of it (`TaskDelegation`, docs/peers.md). */
  get delegation(): DelegatingTask {
    return this.delegating;
  }

  get ref(): TaskRef {
    return this.channel.ref;
  }

  get phase(): TaskPhase {
    return this.core.phase;
  }

  get span(): TraceSpan {
    return this.core.span;
  }

  /** Resolves when the attached A2A turn stops: the task parked or ended. */
  whenTurnStops(): Promise<void> {
    return this.core.whenTurnStops();
  }

  /**
   * The task's whole life: its client's run (the context is free again when that run is over),
   * then its background work; resolves when it holds nothing.
   */
  async run(): Promise<void> {
    const core = this.core;
    try {
      if (this.origin.kind === "client") await this.starter.start(this.origin);
    } catch (err) {
      this.logger.error({ err }, "task: unexpected failure");
      this.finish.fail(TEXT.internalError(err instanceof Error ? err.message : String(err)));
    } finally {
      if (this.origin.kind === "client") this.origin.ticket.release();
    }
    await core.endedGate;
    const suspended = this.suspended;
    if (core.phase.name === "ended" && !suspended) {
      core.worktree?.afterEnd(core.phase.outcome.state);
    }
    core.prompts.clearTimer();
    core.background.clearTimeout();
    // A suspended task's prompt is not denied: Claude would go on with a refusal the caller never
    // gave. The closing process withdraws it; the next server keeps the prompt (recovery.ts).
    if (!suspended) core.prompts.settleAll(DENY_TASK_OVER);
    for (const runId of core.ownedRuns) this.env.disown(runId);
    core.lease?.release();
  }

  /**
   * Takes over a run already under way: the wake its background work caused (or, for an
   * autonomous task, the wake it was created for). False if the task cannot take it.
   */
  adopt(session: ClaudeSession, runId: string): boolean {
    return this.runs.adopt(session, runId);
  }

  /** Background work launched by one of its runs; false if the task does not wait for it. */
  trackBackground(task: Pick<BackgroundTask, "taskId" | "description">): boolean {
    if (this.core.ended) return false;
    return this.core.background.track(task);
  }

  /** A piece of its background work finished: say so; its wake comes next. */
  backgroundFinished(task: BackgroundTask): void {
    if (this.core.ended || !this.core.background.finished(task.taskId)) return;
    this.core.progress(status.backgroundFinished(this.ref, task));
  }

  /** Its wake began, or its notification was folded into another turn: stop waiting for it. */
  backgroundConsumed(taskId: string): void {
    if (this.core.background.consumed(taskId)) this.finish.settle();
  }

  /**
   * The client canceled (or `operator`, an operator acting for it): true if this ended the task
   * (it had not ended already).
   */
  cancel(bus: ExecutionEventBus, session: ClaudeSession | undefined, operator?: string): boolean {
    return this.finish.cancel(bus, session, operator);
  }

  /** Whether the server stopped while it was parked (`suspend`). */
  get suspended(): boolean {
    const phase = this.core.phase;
    return phase.name === "ended" && phase.outcome.state === "suspended";
  }

  /**
   * The server is stopping: a parked task publishes nothing more, so the store keeps it
   * INPUT_REQUIRED for the next server (lifecycle.ts). False if it was not parked.
   */
  suspend(): boolean {
    const done = this.core.step({ type: "suspended" });
    if (done) this.core.prompts.clearTimer();
    return done;
  }

  /**
   * Reserves the shown prompt for one answering message; returns why it cannot. `operator`: the
   * answering caller's name when it has the operator role.
   */
  claim(message: Pick<Message, "parts" | "messageId">, operator?: string): string | undefined {
    return this.input.claim(message, operator);
  }

  /** The claiming request failed before it answered: the prompt waits for another answer. */
  unclaim(messageId: string): void {
    this.input.unclaim(messageId);
  }

  isClaimedBy(messageId: string): boolean {
    return this.input.isClaimedBy(messageId);
  }

  /** Hands the claimed answer to the waiting run (`TaskInput.answer`). */
  answer(message: Pick<Message, "messageId">, operator?: string): AnsweredPrompt | undefined {
    return this.input.answer(message, operator);
  }

  /** A steering message for its run under way (`TaskSteer`); returns why it cannot take it. */
  steer(message: Message, priority: SteerPriority, operator?: string): string | undefined {
    const why = this.steering.steer(message, priority, operator);
    if (why === undefined && operator !== undefined) {
      this.logger.info({ operator }, "operator steered a task of another caller");
    }
    return why;
  }

  /** The runtime's `canUseTool` for a tool call of one of its runs. */
  canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<PermissionResult> {
    return this.input.canUseTool(toolName, input, options);
  }

  /**
   * Its caller's spend reached the daily budget: the turn under way has finished, nothing more
   * runs, and it completes with the answer it has, saying why.
   */
  stopForDailyBudget(text: string): void {
    this.finish.stopForDailyBudget(text);
  }

  /** A file one of its runs created or modified (PostToolUse hook). */
  async onFileChanged(change: FileChange): Promise<void> {
    const core = this.core;
    if (core.ended) return;
    let artifact;
    try {
      artifact = await fileArtifact(change);
    } catch (err) {
      if (isRefused(err)) {
        // Swapped for a link (or a FIFO…) since Claude wrote it: skipped, the task goes on.
        logFileRefusal(this.logger, err);
        core.env.fileRefused?.(err);
        return;
      }
      this.logger.warn({ err, path: change.path }, "file artifact could not be built");
      return;
    }
    if (core.ended || !core.files.admit(artifact)) return;
    const { taskId, contextId } = this.ref;
    const update = { taskId, contextId, artifact, append: false, lastChunk: true };
    this.channel.artifact({ ...update, metadata: undefined });
  }
}
