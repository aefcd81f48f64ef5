import type { Message, Task } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { ClaudeSession, SessionEvent, SteerPriority } from "../../claude/index.js";
import { textPart, type TaskRef } from "../../contract/messages.js";
import { EVENT_NUMBER_KEY } from "../../contract/replay.js";
import { status } from "../../contract/statuses.js";
import { DENIAL } from "../../contract/texts.js";
import { EMPTY_USAGE, usageMetadata } from "../../contract/usage.js";
import {
  conversationKey,
  ownerOf,
  parseConversationKey,
  type ConversationKey,
} from "../../identity/conversation.js";
import { NO_TRACING, requestSpanOf } from "../../tracing/tracing.js";
import type { FileChange } from "../content/file-artifacts.js";
import type { TaskEnvironment } from "../task/environment.js";
import { ServerTask } from "../task/server-task.js";
import type { AutonomousTasks } from "./autonomous-tasks.js";
import { ContextQueue } from "./context-queue.js";
import { taskEnvironment, type ExecutorOptions } from "./executor-options.js";
import { environmentOf, firstTask } from "./owner-policy.js";
import type { LiveState, RunOwnership } from "./run-ownership.js";
import { SessionEvents } from "./session-events.js";
import { admitControl, controlChecker, type ControlChecker } from "./control-admission.js";
import { admitTask } from "../admission/task-admission.js";
import { chosenOf } from "../admission/new-task-guard.js";
import { openChannel } from "./task-channels.js";
import { endTaskSpan, taskSpan } from "./task-spans.js";
import { RestartClaims, suspendParked } from "./restart-claims.js";
import { answerTask } from "./answer-turn.js";

export type { ExecutorOptions } from "./executor-options.js";

/**
 * The A2A side of the server: each task is a `ServerTask` (its states are in `lifecycle.ts`);
 * tasks of one conversation (a caller's context: `conversation.ts`) run one at a time through one
 * queue, conversations in parallel; the session pool is keyed by conversation too. What a run
 * asks or does (permission prompts, questions, file changes) reaches the task that owns the run,
 * by run id, never "whoever holds the context".
 *
 * It is the SDK's one entry (`execute`, `cancelTask`), the sessions' callbacks and the guard's
 * queries, each a short step over what lives beside it: what a new task's message asks
 * (`task-admission.ts`, `control-admission.ts`), what the sessions report (`session-events.ts`),
 * run ownership (`run-ownership.ts`), the conversation queue (`context-queue.ts`).
 */
export class ClaudeAgentExecutor implements AgentExecutor {
  private readonly queue = new ContextQueue();
  private readonly ownership: RunOwnership<ServerTask>;
  /** Answers admitted by the request guard that could not be delivered, by message id. */
  private readonly refusals = new Map<string, string>();
  /** Answers to prompts kept across a restart, each to become its task's next turn. */
  private readonly restartClaims = new RestartClaims();
  /** The operator of each cancel on its way to `cancelTask`, by task id. */
  private readonly operatorCancels = new Map<string, string>();
  private readonly autonomous: AutonomousTasks;
  private readonly env: TaskEnvironment<ServerTask>;
  private readonly sessionEvents: SessionEvents;
  /** A new message's rewind or fork, checked by the request guard before any task exists. */
  readonly checkControl: ControlChecker;

  constructor(private readonly options: ExecutorOptions) {
    this.checkControl = controlChecker(options, (key) => this.queue.depth(key));
    this.ownership = options.ownership;
    this.autonomous = options.autonomous;
    this.env = taskEnvironment(options);
    this.sessionEvents = new SessionEvents({
      ownership: options.ownership,
      autonomous: options.autonomous,
      env: this.env,
      logger: options.logger,
      accounting: options.accounting,
      tracing: options.tracing,
      follow: (task) => this.follow(task),
    });
  }

  /** The W3C trace-context headers of a live task's span (for its push notifications). */
  traceHeaders(taskId: string): Record<string, string> {
    return this.ownership.task(taskId)?.span.headers() ?? {};
  }

  /** True while a task has not ended on this server (queued, starting, running or parked). */
  isActive(taskId: string): boolean {
    return this.ownership.isActive(taskId);
  }

  liveState(taskId: string): LiveState | undefined {
    return this.ownership.liveState(taskId);
  }

  /** The task's lifecycle phase on this server, if it is here (tests, diagnostics). */
  phaseOf(taskId: string): ServerTask["phase"] | undefined {
    return this.ownership.task(taskId)?.phase;
  }

  /** Reserves a parked task's shown prompt (or one a restart kept) for an answer; says why not. */
  claimAnswer(
    taskId: string,
    message: Pick<Message, "parts" | "messageId">,
    stored?: Pick<Task, "status">,
    operator?: string,
  ): string | undefined {
    const task = this.ownership.task(taskId);
    if (task === undefined) return this.restartClaims.claim(taskId, message, stored);
    return task.claim(message, operator);
  }

  /** The server is stopping: parked tasks stay so for the next server (`suspendParked`). */
  suspendParked(): string[] {
    return suspendParked(this.ownership.all(), this.options.logger);
  }

  /** A steering message for a working task (the control extension); returns why it cannot. */
  steer(taskId: string, message: Message, priority: SteerPriority, operator?: string) {
    const task = this.ownership.task(taskId);
    return task ? task.steer(message, priority, operator) : "it is not running on this server";
  }

  /** Undoes `claimAnswer` when the request ended without answering (no-op once answered). */
  releaseClaim(taskId: string, messageId: string): void {
    this.restartClaims.release(taskId, messageId);
    this.ownership.task(taskId)?.unclaim(messageId);
  }

  /** Why the answering message `messageId` was not delivered, once; undefined if it was. */
  takeRefusal(messageId: string): string | undefined {
    const why = this.refusals.get(messageId);
    this.refusals.delete(messageId);
    return why;
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    if (ctx.task !== undefined) return this.answer(ctx, bus);
    return this.begin(ctx, bus);
  };

  /**
   * An operator's cancel of another caller's task is about to reach `cancelTask` (which the SDK
   * calls with no request context): its canceled status names them. Undefined: forget it.
   */
  cancelingOperator(taskId: string, operator: string | undefined): void {
    if (operator === undefined) this.operatorCancels.delete(taskId);
    else this.operatorCancels.set(taskId, operator);
  }

  cancelTask = (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const task = this.ownership.task(taskId);
    const session = task && this.options.pool.peek(task.conversation);
    const operator = this.operatorCancels.get(taskId);
    const canceled = task?.cancel(bus, session, operator) === true;
    if (canceled && operator !== undefined) {
      this.options.logger.info(
        { taskId, owner: parseConversationKey(task.conversation)?.owner, operator },
        "operator canceled a task of another caller",
      );
    }
    if (!canceled) {
      // It ended between the handler's lookup and this call: nothing to cancel. Finishing the bus
      // releases the handler's wait for a terminal event; it then reports the task's real state.
      bus.finished();
    }
    return Promise.resolve();
  };

  /** The session's `canUseTool`: the task owning the run that asks, or nobody. */
  canUseTool(
    conversation: ConversationKey,
    toolName: string,
    input: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      runId: string | undefined;
      toolUseID?: string | undefined;
      title?: string | undefined;
      decisionReason?: string | undefined;
    },
  ): Promise<PermissionResult> {
    const task = this.ownership.ofRun(options.runId);
    if (task === undefined) {
      this.options.logger.info(
        { conversation, runId: options.runId, toolName },
        "permission request from a run no task owns: denied",
      );
      return Promise.resolve({ behavior: "deny", message: DENIAL.unowned });
    }
    return task.canUseTool(toolName, input, options);
  }

  /** From the session's PostToolUse hook: the file belongs to the task owning the run. */
  async onFileChanged(
    conversation: ConversationKey,
    runId: string | undefined,
    change: FileChange,
  ): Promise<void> {
    const task = this.ownership.ofRun(runId);
    if (task === undefined) {
      this.options.logger.info(
        { conversation, runId, path: change.path },
        "file change by a run no task owns: not published",
      );
      return;
    }
    await task.onFileChanged(change);
  }

  /**
   * What a context's Claude session reports that the A2A side acts on: background work and its
   * owner, and wakes, which go to the task whose work caused them or become autonomous tasks.
   */
  onSessionEvent(conversation: ConversationKey, session: ClaudeSession, event: SessionEvent): void {
    this.sessionEvents.on(conversation, session, event);
  }

  /** How many entries the executor keeps for wakes (tests: it must not grow without bound). */
  get retained(): { readonly launchedBy: number; readonly lastCaller: number } {
    return this.sessionEvents.retained;
  }

  /** Runs a task to its end; then it is forgotten, its caller's count drops, its span ends. */
  private follow(task: ServerTask): void {
    const taskId = task.ref.taskId;
    void task.run().finally(() => {
      this.ownership.remove(task);
      this.options.accounting?.ended(taskId);
      endTaskSpan(task.span, task.phase);
    });
  }

  /**
   * `resume`: the new turn's prompt of an answer to a prompt kept across a restart; the task
   * exists (the stored one), and its answer runs as its next turn, in place of the message.
   */
  private async begin(ctx: RequestContext, bus: ExecutionEventBus, resume?: string): Promise<void> {
    const ref: TaskRef = { taskId: ctx.taskId, contextId: ctx.contextId };
    const logger = this.options.logger.child({ taskId: ref.taskId, contextId: ref.contextId });
    const owner = ownerOf(ctx.context);
    const conversation = conversationKey({ owner, contextId: ref.contextId });
    // The task exists from here: it counts as its caller's, in place of the request's admission.
    this.options.accounting?.began(owner, ref.taskId, ctx.userMessage.messageId);
    const request = requestSpanOf(ctx.context?.state);
    request?.set({ "a2a.task.id": ref.taskId, "a2a.context.id": ref.contextId });
    const span = taskSpan(this.options.tracing ?? NO_TRACING, request, ref, owner, "client");
    this.autonomous.noteCaller(conversation, ctx.context);
    const channel = openChannel(this.options, ref, logger);
    if (resume !== undefined) channel.continueFrom(ctx.task?.metadata?.[EVENT_NUMBER_KEY]);
    channel.attach(bus, ctx.context, ctx.userMessage.messageId);
    channel.task(
      resume !== undefined && ctx.task ? ctx.task : firstTask(ref, owner, ctx.userMessage),
    );
    const message =
      resume === undefined ? ctx.userMessage : { ...ctx.userMessage, parts: [textPart(resume)] };
    // Ended before it runs: it no longer counts as its caller's, and its span ends.
    const notRun = (why: string) => {
      this.options.accounting?.ended(ref.taskId);
      span.fail(why);
      span.end();
    };
    const refuse = (text: string) => {
      notRun(text);
      channel.status({ ...status.failed(ref, text), metadata: usageMetadata(EMPTY_USAGE) });
    };
    let admitted;
    try {
      const chosen = resume === undefined ? chosenOf(ctx.context?.state) : undefined;
      admitted = admitTask(message, { owner, taskId: ref.taskId }, this.options.policy, chosen);
    } catch (err) {
      notRun(err instanceof Error ? err.message : String(err));
      throw err;
    }
    if (!admitted.ok) return refuse(admitted.reason);
    const queued = this.queue.depth(conversation);
    const controlled = await admitControl(this.options, queued, message, ref, ctx.context);
    if (!controlled.ok) return refuse(controlled.reason);
    const ticket = this.queue.enter(conversation);
    const accepted = ctx.request.configuration?.acceptedOutputModes ?? [];
    const control = controlled.control;
    const origin = { ...admitted, kind: "client", ticket, control } as const;
    const env = environmentOf(this.env, owner, this.options);
    const task = new ServerTask(channel, origin, env, logger, conversation, {
      acceptedOutputModes: accepted,
      span,
    });
    this.ownership.add(task);
    this.follow(task);
    await task.whenTurnStops();
  }

  /** A message for an existing task: the answer to its shown prompt (`answer-turn.ts`). */
  private answer(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    return answerTask(ctx, bus, {
      task: this.ownership.task(ctx.taskId),
      restartClaims: this.restartClaims,
      refusals: this.refusals,
      logger: this.options.logger,
      begin: (resume) => this.begin(ctx, bus, resume),
    });
  }
}
