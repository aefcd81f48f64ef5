import { TaskState } from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { ClaudeSession, NormalizedEvent, SessionEvent } from "../../claude/index.js";
import { statusUpdate } from "../../contract/messages.js";
import { parseConversationKey, type ConversationKey } from "../../identity/conversation.js";
import { NO_TRACING, type Tracing } from "../../tracing/tracing.js";
import type { TaskEnvironment } from "../task/environment.js";
import { ServerTask } from "../task/server-task.js";
import type { AutonomousTasks } from "./autonomous-tasks.js";
import type { CallerAccounting } from "./caller-accounting.js";
import type { RunOwnership } from "./run-ownership.js";
import { taskSpan } from "./task-spans.js";

export interface SessionEventsOptions {
  readonly ownership: RunOwnership<ServerTask>;
  readonly autonomous: AutonomousTasks;
  readonly env: TaskEnvironment<ServerTask>;
  readonly logger: Logger;
  readonly accounting?: CallerAccounting | undefined;
  readonly tracing?: Tracing | undefined;
  /** Runs a task the events created to its end (the executor's, shared with client tasks). */
  readonly follow: (task: ServerTask) => void;
}

/**
 * What a conversation's Claude session reports that the A2A side acts on: background work and
 * the task that launched it, wakes (a run the runtime began by itself), which go to the task
 * whose work caused them or become autonomous tasks, what each result cost its caller, and the
 * session's end. A new kind of session event that a task must hear of lands here.
 */
export class SessionEvents {
  constructor(private readonly o: SessionEventsOptions) {}

  on(conversation: ConversationKey, session: ClaudeSession, event: SessionEvent): void {
    const ownership = this.o.ownership;
    switch (event.type) {
      case "background_task_started":
      case "background_task_attributed":
        ownership.launched(event.task)?.trackBackground(event.task);
        return;
      case "background_task_finished":
        ownership.launcher(event.task.taskId)?.backgroundFinished(event.task);
        // Work the server stopped (sessions.maxBackgroundMs) wakes nothing: the runtime starts
        // no turn for a task stopped with stopTask, so its owner stops waiting for one.
        if (event.task.stopReason !== undefined) this.consumeBackground(event.task.taskId);
        return;
      case "background_notifications_folded":
        for (const id of event.taskIds) this.consumeBackground(id);
        return;
      case "run_started":
        if (event.origin === "autonomous") this.onWake(conversation, session, event);
        return;
      case "run_event":
      case "metadata":
        if (event.event.kind === "result") this.onResult(conversation, event.event);
        return;
      case "closed":
        this.forgetConversation(conversation);
        return;
      default:
        return;
    }
  }

  /** How many entries are kept for wakes (tests: it must not grow without bound). */
  get retained(): { readonly launchedBy: number; readonly lastCaller: number } {
    const { retainedLaunches: launchedBy } = this.o.ownership;
    return { launchedBy, lastCaller: this.o.autonomous.retainedCallers };
  }

  /**
   * A closed session wakes no more: what was kept to attribute its wakes goes, so a server that
   * runs for months holds nothing per conversation that has ended (a later session of the same
   * conversation starts afresh).
   */
  private forgetConversation(conversation: ConversationKey): void {
    this.o.autonomous.forget(conversation);
    this.o.ownership.forget(conversation);
  }

  /** Every result the runtime sends, whichever run it ends: what it cost is its caller's. */
  private onResult(
    conversation: string,
    result: Extract<NormalizedEvent, { kind: "result" }>,
  ): void {
    const accounting = this.o.accounting;
    const owner = parseConversationKey(conversation)?.owner;
    if (accounting === undefined || owner === undefined) return;
    accounting.runEnded(owner, result);
  }

  private onWake(
    conversation: ConversationKey,
    session: ClaudeSession,
    event: Extract<SessionEvent, { type: "run_started" }>,
  ): void {
    const { ownership, logger } = this.o;
    const causes = event.causes ?? [];
    const caller = parseConversationKey(conversation)?.owner;
    const stop = caller === undefined ? undefined : this.o.accounting?.budgetStop(caller, false);
    if (stop !== undefined) {
      // Past its caller's daily budget, background work wakes Claude no more: the wake is
      // interrupted before it costs, and the tasks that waited for it end saying why.
      session.cancelRun(event.runId, "daily budget reached");
      for (const id of causes) {
        ownership.launcher(id)?.stopForDailyBudget(stop);
        this.consumeBackground(id);
      }
      logger.info(
        { conversation, runId: event.runId },
        "wake: caller over its daily budget, interrupted",
      );
      return;
    }
    let adopter: ServerTask | undefined;
    let referenced: ServerTask | undefined;
    for (const id of causes) {
      const owner = ownership.launcher(id);
      if (owner === undefined) continue;
      referenced ??= owner;
      if (adopter === undefined && owner.adopt(session, event.runId)) adopter = owner;
    }
    for (const id of causes) this.consumeBackground(id);
    const log = { conversation, runId: event.runId, causes, taskId: adopter?.ref.taskId };
    if (adopter !== undefined) {
      logger.debug(log, "wake: a run of the task whose background work caused it");
      return;
    }
    this.startAutonomousTask(conversation, session, event.runId, referenced);
  }

  private consumeBackground(backgroundTaskId: string): void {
    this.o.ownership.consume(backgroundTaskId)?.backgroundConsumed(backgroundTaskId);
  }

  /** A wake no live task takes: it becomes a task of its own (`autonomous-tasks.ts`). */
  private startAutonomousTask(
    conversation: ConversationKey,
    session: ClaudeSession,
    runId: string,
    referenced: ServerTask | undefined,
  ): void {
    const parsed = parseConversationKey(conversation);
    const opened = parsed && this.o.autonomous.open(conversation, runId, referenced);
    if (parsed === undefined || opened === undefined) {
      if (parsed === undefined) {
        this.o.logger.error({ conversation, runId }, "wake: not a conversation key; ignored");
      }
      return;
    }
    const { ref, channel, logger } = opened;
    const tracing = this.o.tracing ?? NO_TRACING;
    const span = taskSpan(tracing, referenced?.span, ref, parsed.owner, "autonomous");
    const origin = { kind: "autonomous" } as const;
    const serverTask = new ServerTask(channel, origin, this.o.env, logger, conversation, { span });
    this.o.ownership.add(serverTask);
    this.o.accounting?.began(parsed.owner, ref.taskId);
    if (!serverTask.adopt(session, runId)) {
      logger.warn("wake: the run ended before its task could follow it");
    }
    channel.status(statusUpdate(ref, TaskState.TASK_STATE_WORKING));
    logger.info({ referenceTaskId: opened.referenceTaskId }, "wake: autonomous task created");
    this.o.follow(serverTask);
  }
}
