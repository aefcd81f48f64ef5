import { TaskState } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { SessionPool } from "../sessions/pool.js";
import { ContextQueue, type Ticket } from "./context-queue.js";
import type { FileChange } from "./file-artifacts.js";
import { InputError, planPrompt, toUserPrompt, writeInbox } from "./input.js";
import { KIND, kindStatus, newTask, plainStatus, type TaskRef } from "./messages.js";
import { TaskPublisher } from "./task-publisher.js";
import { TaskTurn } from "./turn.js";

export interface ExecutorOptions {
  readonly pool: SessionPool;
  /** The workspace: inbox files are written under it. */
  readonly cwd: string;
  readonly logger: Logger;
}

interface ActiveTask {
  readonly ref: TaskRef;
  readonly pub: TaskPublisher;
  readonly ticket: Ticket;
  turn: TaskTurn | undefined;
  canceled: boolean;
  /** Resolves when the task is canceled, so a queued turn stops waiting for the context. */
  readonly whenCanceled: Promise<void>;
  readonly markCanceled: () => void;
}

export const QUEUED_TEXT =
  "Queued: another task is running in this context; this one starts when it ends.";

/**
 * Each A2A task turn is one foreground run of its context's Claude session. Turns of one context
 * run one at a time (a later one waits, SUBMITTED, with a `queued` status); contexts run in
 * parallel.
 */
export class ClaudeAgentExecutor implements AgentExecutor {
  private readonly queue = new ContextQueue();
  private readonly tasks = new Map<string, ActiveTask>();
  /** The turn holding each context: file changes reported by the session's hook go to it. */
  private readonly holders = new Map<string, TaskTurn>();

  constructor(private readonly options: ExecutorOptions) {}

  /** True while a turn of the task is queued or running on this server. */
  isActive(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const ref: TaskRef = { taskId: ctx.taskId, contextId: ctx.contextId };
    const log = this.options.logger.child({ taskId: ref.taskId, contextId: ref.contextId });
    const pub = new TaskPublisher(ref, bus, log);
    // The first event of every turn is the task: the stored one on a follow-up, so its history stays.
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
      pub,
      ticket,
      turn: undefined,
      canceled: false,
      whenCanceled,
      markCanceled,
    };
    this.tasks.set(ref.taskId, active);
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
        pub.status(
          plainStatus(
            ref,
            TaskState.TASK_STATE_FAILED,
            `Attached files could not be saved: ${String(err)}`,
          ),
        );
        return;
      }
      const lease = this.options.pool.acquire(ref.contextId);
      const turn = new TaskTurn(pub, lease.session, toUserPrompt(plan), log);
      active.turn = turn;
      this.holders.set(ref.contextId, turn);
      try {
        await turn.run();
      } finally {
        if (this.holders.get(ref.contextId) === turn) this.holders.delete(ref.contextId);
        lease.release();
      }
    } finally {
      ticket.release();
      this.tasks.delete(ref.taskId);
    }
  };

  cancelTask = (taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    const active = this.tasks.get(taskId);
    if (active === undefined || active.canceled) return Promise.resolve();
    active.canceled = true;
    active.turn?.cancel();
    active.markCanceled();
    // The request handler waits for this terminal event on the task's bus.
    active.pub.status(plainStatus(active.ref, TaskState.TASK_STATE_CANCELED, "Task canceled."));
    return Promise.resolve();
  };

  /** From the session's PostToolUse hook: the file belongs to the turn holding the context. */
  async onFileChanged(contextId: string, change: FileChange): Promise<void> {
    await this.holders.get(contextId)?.onFileChanged(change);
  }
}
