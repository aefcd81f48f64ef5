import { TaskState } from "@a2a-js/sdk";
import {
  ResultManager,
  type AgentExecutor,
  type ExecutionEventBus,
  type ExecutionEventBusManager,
  type RequestContext,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { SessionPool } from "../sessions/pool.js";
import { ContextQueue, type Ticket } from "./context-queue.js";
import type { FileChange } from "./file-artifacts.js";
import { InputError, planPrompt, toUserPrompt, writeInbox } from "./input.js";
import { KIND, kindStatus, newTask, plainStatus, resumedStatus, type TaskRef } from "./messages.js";
import { TaskPublisher } from "./task-publisher.js";
import { TaskTurn, type TurnPolicy, type TurnStop } from "./turn.js";

export interface ExecutorOptions {
  readonly pool: SessionPool;
  /** The workspace: inbox files are written under it. */
  readonly cwd: string;
  readonly policy: TurnPolicy;
  /** Where a parked task's late outcome (timeout) is written when no request is attached. */
  readonly taskStore: TaskStore;
  readonly busManager: ExecutionEventBusManager;
  readonly logger: Logger;
}

interface ActiveTask {
  readonly ref: TaskRef;
  readonly ticket: Ticket;
  /** The latest request's bus and call context (a resumed turn brings new ones). */
  bus: ExecutionEventBus;
  context: ServerCallContext;
  turn: TaskTurn | undefined;
  canceled: boolean;
  /** True while an `execute()` call is attached to the task (the SDK settles the bus then). */
  attached: boolean;
  readonly whenCanceled: Promise<void>;
  readonly markCanceled: () => void;
}

export const QUEUED_TEXT =
  "Queued: another task is running in this context; this one starts when it ends.";

/**
 * Each A2A task is one foreground run of its context's Claude session. Tasks of one context run
 * one at a time (a later one waits, SUBMITTED, with a `queued` status); contexts run in parallel.
 * A task parked in input-required keeps its context until it is answered, canceled or times out.
 */
export class ClaudeAgentExecutor implements AgentExecutor {
  private readonly queue = new ContextQueue();
  private readonly tasks = new Map<string, ActiveTask>();
  /** The task holding each context: the session's hooks and permission prompts go to it. */
  private readonly holders = new Map<string, TaskTurn>();

  constructor(private readonly options: ExecutorOptions) {}

  /** True while a task is queued, running or parked on this server. */
  isActive(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  /**
   * Reserves a parked task for an answering message, before the SDK opens the bus. Returns the
   * reason when the message cannot answer it.
   */
  claimAnswer(taskId: string, message: Parameters<TaskTurn["claim"]>[0]): string | undefined {
    const turn = this.tasks.get(taskId)?.turn;
    if (turn === undefined) return "it is not waiting for an answer on this server";
    return turn.claim(message);
  }

  /** Undoes `claimAnswer` when the request failed before reaching `execute()`. */
  releaseClaim(taskId: string): void {
    const active = this.tasks.get(taskId);
    if (active !== undefined && !active.attached) active.turn?.unclaim();
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const resumed = this.tasks.get(ctx.taskId);
    if (resumed?.turn?.isParked && ctx.task !== undefined) {
      return this.resume(resumed, resumed.turn, ctx, bus);
    }
    return this.begin(ctx, bus);
  };

  cancelTask = (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const active = this.tasks.get(taskId);
    if (active === undefined) {
      // It ended between the handler's lookup and this call: nothing to cancel. Finishing the bus
      // releases the handler's wait for a terminal event; it then reports the task's real state.
      bus.finished();
      return Promise.resolve();
    }
    if (active.canceled) return Promise.resolve();
    active.canceled = true;
    active.turn?.cancel();
    active.markCanceled();
    // The request handler waits for this terminal event on the task's bus and stores it.
    const pub = new TaskPublisher(active.ref, bus, this.options.logger);
    pub.status(plainStatus(active.ref, TaskState.TASK_STATE_CANCELED, "Task canceled."));
    return Promise.resolve();
  };

  /** From the session's PostToolUse hook: the file belongs to the task holding the context. */
  async onFileChanged(contextId: string, change: FileChange): Promise<void> {
    await this.holders.get(contextId)?.onFileChanged(change);
  }

  /** The session's `canUseTool`: the task holding the context asks its client. */
  canUseTool(
    contextId: string,
    toolName: string,
    input: Record<string, unknown>,
    options: { signal: AbortSignal; title?: string; decisionReason?: string },
  ): Promise<PermissionResult> {
    const holder = this.holders.get(contextId);
    if (holder === undefined) {
      return Promise.resolve({
        behavior: "deny",
        message: "No client is attached to answer this request; continue without it.",
      });
    }
    return holder.canUseTool(toolName, input, options);
  }

  private async begin(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ref: TaskRef = { taskId: ctx.taskId, contextId: ctx.contextId };
    const log = this.options.logger.child({ taskId: ref.taskId, contextId: ref.contextId });
    const pub = new TaskPublisher(ref, bus, log);
    // The first event of every turn is the task: the stored one on a follow-up, so history stays.
    pub.task(ctx.task ?? newTask(ref, ctx.userMessage));

    let plan;
    try {
      plan = planPrompt(ctx.userMessage, ref.taskId);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      pub.status(plainStatus(ref, TaskState.TASK_STATE_FAILED, err.message));
      return;
    }

    const ticket = this.queue.enter(ref.contextId);
    let markCanceled!: () => void;
    const whenCanceled = new Promise<void>((resolve) => (markCanceled = resolve));
    const active: ActiveTask = {
      ref,
      ticket,
      bus,
      context: ctx.context,
      turn: undefined,
      canceled: false,
      attached: true,
      whenCanceled,
      markCanceled,
    };
    this.tasks.set(ref.taskId, active);
    let started = false;
    try {
      if (!ticket.immediate) {
        pub.status(kindStatus(ref, TaskState.TASK_STATE_SUBMITTED, KIND.queued, QUEUED_TEXT));
      }
      await Promise.race([ticket.ready, whenCanceled]);
      if (active.canceled) return;
      try {
        await writeInbox(this.options.cwd, plan.files);
      } catch (err) {
        log.error({ err }, "inbox write failed");
        const text = `Attached files could not be saved: ${String(err)}`;
        pub.status(plainStatus(ref, TaskState.TASK_STATE_FAILED, text));
        return;
      }
      const lease = this.options.pool.acquire(ref.contextId);
      const turn = new TaskTurn(pub, lease.session, toUserPrompt(plan), this.options.policy, log);
      active.turn = turn;
      this.holders.set(ref.contextId, turn);
      started = true;
      const firstStop = turn.start();
      void turn.finished.finally(() => {
        if (this.holders.get(ref.contextId) === turn) this.holders.delete(ref.contextId);
        lease.release();
        this.finish(active);
      });
      await this.afterStop(active, turn, await firstStop);
    } finally {
      if (!started) this.finish(active);
    }
  }

  private async resume(
    active: ActiveTask,
    turn: TaskTurn,
    ctx: RequestContext,
    bus: ExecutionEventBus,
  ): Promise<void> {
    const log = this.options.logger.child({ taskId: active.ref.taskId, resumed: true });
    active.bus = bus;
    active.context = ctx.context;
    active.attached = true;
    const pub = new TaskPublisher(active.ref, bus, log);
    // The stored task verbatim (a pure snapshot: still input-required), then `resumed`.
    pub.task(ctx.task ?? newTask(active.ref, ctx.userMessage));
    pub.status(resumedStatus(active.ref));
    turn.attach(pub);
    await this.afterStop(active, turn, await turn.resume(ctx.userMessage));
  }

  /**
   * After an A2A turn stops: if the task parked, no request is attached any more, so what it
   * publishes later (a timeout's failure) is written to the store directly and still reaches
   * subscribers on the bus.
   */
  private async afterStop(active: ActiveTask, turn: TaskTurn, stop: TurnStop): Promise<void> {
    if (stop === "done") {
      await turn.finished;
      return;
    }
    active.attached = false;
    const { ref, context, bus } = active;
    const results = new ResultManager(this.options.taskStore, context);
    let writes = Promise.resolve();
    const persist = (event: Parameters<ResultManager["processEvent"]>[0]) => {
      writes = writes
        .then(() => results.processEvent(event))
        .catch((err: unknown) =>
          this.options.logger.error({ err, taskId: ref.taskId }, "store write failed"),
        );
    };
    turn.attach(new TaskPublisher(ref, bus, this.options.logger, persist));
  }

  private finish(active: ActiveTask): void {
    active.ticket.release();
    if (this.tasks.get(active.ref.taskId) === active) this.tasks.delete(active.ref.taskId);
    if (!active.attached) {
      // Ended while parked (timeout, cancel): no execute() will settle its bus, so do it here.
      active.bus.finished();
      this.options.busManager.cleanupByTaskId(active.ref.taskId, active.context);
    }
  }
}
