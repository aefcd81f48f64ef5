import { TaskState, type Message } from "@a2a-js/sdk";
import type {
  AgentExecutor,
  ExecutionEventBus,
  ExecutionEventBusManager,
  RequestContext,
  TaskStore,
} from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { SessionPool } from "../sessions/pool.js";
import { realTimers, type Timers } from "../timers.js";
import { ContextQueue } from "./context-queue.js";
import type { FileChange } from "./file-artifacts.js";
import { InputError, planPrompt, removeInbox, writeInbox } from "./input.js";
import { newTask, plainStatus, type TaskRef } from "./messages.js";
import { ServerTask, type Inbox, type TaskEnvironment, type TurnPolicy } from "./server-task.js";
import { TaskChannel } from "./task-channel.js";

export { QUEUED_TEXT } from "./server-task.js";
export type { TurnPolicy } from "./server-task.js";

export interface ExecutorOptions {
  readonly pool: SessionPool;
  /** The workspace: inbox files are written under it. */
  readonly cwd: string;
  readonly policy: TurnPolicy;
  /** Where a parked task's later events are written when no request is attached. */
  readonly taskStore: TaskStore;
  readonly busManager: ExecutionEventBusManager;
  readonly logger: Logger;
  readonly timers?: Timers;
  readonly inbox?: Inbox;
}

/** Said to Claude when work no task owns (a wake) asks a client something. */
export const UNOWNED_DENIAL =
  "No A2A task owns this work (Claude started it by itself, or its task has ended), so no client can answer this request. Continue without it.";

const defaultInbox: Inbox = { write: writeInbox, remove: removeInbox };

/**
 * The A2A side of the server: each task is a `ServerTask` (its states are in `lifecycle.ts`);
 * tasks of one context run one at a time through one queue, contexts in parallel. What a run
 * asks or does (permission prompts, questions, file changes) reaches the task that owns the run,
 * by run id, never "whoever holds the context".
 */
export class ClaudeAgentExecutor implements AgentExecutor {
  private readonly queue = new ContextQueue();
  private readonly tasks = new Map<string, ServerTask>();
  /** run id → the task that owns the run. */
  private readonly owners = new Map<string, ServerTask>();
  /** Answers admitted by the request guard that could not be delivered, by message id. */
  private readonly refusals = new Map<string, string>();
  private readonly env: TaskEnvironment;

  constructor(private readonly options: ExecutorOptions) {
    this.env = {
      cwd: options.cwd,
      policy: options.policy,
      timers: options.timers ?? realTimers,
      inbox: options.inbox ?? defaultInbox,
      acquire: (contextId) => options.pool.acquire(contextId),
      own: (runId, task) => this.owners.set(runId, task),
      disown: (runId) => this.owners.delete(runId),
    };
  }

  /** True while a task has not ended on this server (queued, starting, running or parked). */
  isActive(taskId: string): boolean {
    const task = this.tasks.get(taskId);
    return task !== undefined && task.phase.name !== "ended";
  }

  liveState(taskId: string): "working" | "parked" | undefined {
    const phase = this.tasks.get(taskId)?.phase;
    if (phase === undefined || phase.name === "ended") return undefined;
    return phase.name === "parked" ? "parked" : "working";
  }

  /** The task's lifecycle phase on this server, if it is here (tests, diagnostics). */
  phaseOf(taskId: string): ServerTask["phase"] | undefined {
    return this.tasks.get(taskId)?.phase;
  }

  /**
   * Reserves a parked task's shown prompt for an answering message, before the SDK opens the
   * bus. Returns the reason when the message cannot answer it.
   */
  claimAnswer(taskId: string, message: Pick<Message, "parts" | "messageId">): string | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined) return "it is not waiting for an answer on this server";
    return task.claim(message);
  }

  /** Undoes `claimAnswer` when the request ended without answering (no-op once answered). */
  releaseClaim(taskId: string, messageId: string): void {
    this.tasks.get(taskId)?.unclaim(messageId);
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

  cancelTask = (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const task = this.tasks.get(taskId);
    if (task === undefined || !task.cancel(bus)) {
      // It ended between the handler's lookup and this call: nothing to cancel. Finishing the bus
      // releases the handler's wait for a terminal event; it then reports the task's real state.
      bus.finished();
    }
    return Promise.resolve();
  };

  /** The session's `canUseTool`: the task owning the run that asks, or nobody. */
  canUseTool(
    contextId: string,
    toolName: string,
    input: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      runId: string | undefined;
      title?: string | undefined;
      decisionReason?: string | undefined;
    },
  ): Promise<PermissionResult> {
    const task = options.runId === undefined ? undefined : this.owners.get(options.runId);
    if (task === undefined) {
      this.options.logger.info(
        { contextId, runId: options.runId, toolName },
        "permission request from a run no task owns: denied",
      );
      return Promise.resolve({ behavior: "deny", message: UNOWNED_DENIAL });
    }
    return task.canUseTool(toolName, input, options);
  }

  /** From the session's PostToolUse hook: the file belongs to the task owning the run. */
  async onFileChanged(
    contextId: string,
    runId: string | undefined,
    change: FileChange,
  ): Promise<void> {
    const task = runId === undefined ? undefined : this.owners.get(runId);
    if (task === undefined) {
      this.options.logger.info(
        { contextId, runId, path: change.path },
        "file change by a run no task owns: not published",
      );
      return;
    }
    await task.onFileChanged(change);
  }

  private async begin(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ref: TaskRef = { taskId: ctx.taskId, contextId: ctx.contextId };
    const logger = this.options.logger.child({ taskId: ref.taskId, contextId: ref.contextId });
    const channel = new TaskChannel({
      ref,
      store: this.options.taskStore,
      busManager: this.options.busManager,
      logger,
    });
    channel.attach(bus, ctx.context);
    channel.task(newTask(ref, ctx.userMessage));
    let plan;
    try {
      plan = planPrompt(ctx.userMessage, ref.taskId);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      channel.status(plainStatus(ref, TaskState.TASK_STATE_FAILED, err.message));
      return;
    }
    const ticket = this.queue.enter(ref.contextId);
    const accepted = ctx.request.configuration?.acceptedOutputModes ?? [];
    const task = new ServerTask(channel, plan, ticket, this.env, logger, accepted);
    this.tasks.set(ref.taskId, task);
    void task.run().finally(() => {
      if (this.tasks.get(ref.taskId) === task) this.tasks.delete(ref.taskId);
    });
    await task.whenTurnStops();
  }

  /**
   * A message for an existing task: the guard admitted it as the answer to the task's shown
   * prompt. Whatever happened since (a cancel, a timeout, the process dying), it either answers
   * that prompt or is refused: it never starts a run, and it publishes nothing on a task that
   * has moved on (the guard turns the refusal into the request's error).
   */
  private async answer(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = ctx.userMessage;
    const task = this.tasks.get(ctx.taskId);
    if (task === undefined || !task.isClaimedBy(message.messageId)) {
      const phase = task?.phase;
      const why =
        phase === undefined || phase.name === "ended"
          ? "it ended before this answer reached it"
          : "the request it answered is no longer pending";
      this.options.logger.info({ taskId: ctx.taskId, why }, "answer refused");
      this.refusals.set(message.messageId, why);
      return;
    }
    task.channel.attach(bus, ctx.context);
    // The stored task verbatim (a pure snapshot: still input-required), then `resumed`.
    task.channel.task(ctx.task ?? newTask(task.ref, message));
    task.answer(message);
    await task.whenTurnStops();
  }
}
