import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { Logger } from "pino";
import type { BackgroundTask } from "../../claude/index.js";
import { parseConversationKey, type ConversationKey } from "../../identity/conversation.js";
import type { SessionLease } from "../../sessions/pool.js";
import { NOOP_SPAN, type SpanAttributes, type TraceSpan } from "../../tracing/tracing.js";
import type { ControlRecord } from "../../contract/control.js";
import { restamped, type TaskRef } from "../../contract/messages.js";
import type { WorktreeRewind } from "../../workspace/worktrees/rewind.js";
import { FileDelivery } from "../content/content-modes.js";
import type { TaskChannel } from "../channel/task-channel.js";
import { BackgroundWait } from "./background-wait.js";
import type { TaskEnvironment, TaskOrigin } from "./environment.js";
import { TaskInputRequests } from "./input-requests.js";
import {
  AUTONOMOUS_PHASE,
  INITIAL_PHASE,
  progressFate,
  transition,
  turnStops,
  type LifecycleEvent,
  type TaskPhase,
} from "./lifecycle.js";
import type { RunOutput } from "./run-output.js";
import { TaskWorktree } from "./task-worktree.js";

export interface TaskCoreOptions {
  /** The creating request's `acceptedOutputModes` (empty: anything), for the task's life. */
  readonly acceptedOutputModes?: readonly string[];
  /** The task's span: its runs' spans are its children. */
  readonly span?: TraceSpan;
  /** Called when the shown prompt's input timeout fires (the input collaborator decides). */
  readonly onInputTimeout: () => void;
  /** Records that one of its runs belongs to the task (the environment's `own`, bound to it). */
  readonly own: (runId: string) => void;
}

/**
 * What every phase of one task shares: its phase and the one `step` that moves it, and the state
 * the phases read and write (the runs under way, the prompts, the background work, the lease,
 * the progress held while it is parked). It decides nothing: the collaborators beside it
 * (task-start.ts, task-runs.ts, task-input.ts, task-finish.ts) each own the steps of their
 * phase, and ServerTask is their one face to the rest of the server.
 */
export class TaskCore {
  private current: TaskPhase;
  private readonly turnWaiters: (() => void)[] = [];
  /** Resolves once the task has ended. */
  readonly endedGate: Promise<void>;
  private openEndedGate!: () => void;
  readonly prompts: TaskInputRequests;
  readonly background: BackgroundWait;
  lease: SessionLease | undefined;
  /** Active runs of this task, and what each shows the client. */
  readonly runs = new Map<string, RunOutput>();
  /** Every run it ever owned: a late prompt of one (a background subagent) still reaches it. */
  readonly ownedRuns = new Set<string>();
  /** Progress emitted while it was parked: published when an answer resumes it. */
  readonly held: TaskStatusUpdateEvent[] = [];
  /** File artifacts the client accepts; the others are listed in the final answer instead. */
  readonly files: FileDelivery;
  readonly span: TraceSpan;
  /** The ids every span of the task carries. */
  readonly spanIds: SpanAttributes;
  /** Its conversation's worktree (`claude.isolation: "worktree"`), else undefined. */
  readonly worktree: TaskWorktree | undefined;
  readonly own: (runId: string) => void;
  /** Where it began and ended in its conversation: `metadata.control` of its final status. */
  readonly record: { -readonly [K in keyof ControlRecord]: ControlRecord[K] } = {};
  /** A rewind under worktrees: where the worktree went and what was kept. */
  rewound: WorktreeRewind | undefined;
  /** Delegated calls under way (docs/peers.md): aborted when the task ends, so cancel flows down. */
  readonly peerCalls = new Set<AbortController>();
  /** The client's run under way (its prompt's, or its next turn's): steering goes to it. */
  foregroundRun: string | undefined;

  constructor(
    readonly channel: TaskChannel,
    readonly origin: TaskOrigin,
    readonly env: TaskEnvironment,
    readonly logger: Logger,
    /** Its caller's conversation (`conversation.ts`): the key of its session and turn queue. */
    readonly conversation: ConversationKey,
    options: TaskCoreOptions,
  ) {
    this.current = origin.kind === "client" ? INITIAL_PHASE : AUTONOMOUS_PHASE;
    this.background = new BackgroundWait(env.policy, env.timers);
    this.files = new FileDelivery(options.acceptedOutputModes ?? []);
    this.span = options.span ?? NOOP_SPAN;
    this.spanIds = {
      "a2a.task.id": channel.ref.taskId,
      "a2a.context.id": channel.ref.contextId,
      "a2a.caller": parseConversationKey(conversation)?.owner,
    };
    this.prompts = new TaskInputRequests(env.policy, env.timers, options.onInputTimeout);
    this.own = options.own;
    this.endedGate = new Promise((resolve) => (this.openEndedGate = resolve));
    const conversationRef = { key: conversation, contextId: channel.ref.contextId };
    this.worktree =
      env.isolation &&
      new TaskWorktree(env.isolation, conversationRef, channel.ref.taskId, logger, this.record);
  }

  get ref(): TaskRef {
    return this.channel.ref;
  }

  get phase(): TaskPhase {
    return this.current;
  }

  /** Read through a getter so a check after an await is not narrowed away by the one before. */
  get ended(): boolean {
    return this.current.name === "ended";
  }

  /** Resolves when the attached A2A turn stops: the task parked or ended. */
  whenTurnStops(): Promise<void> {
    if (turnStops(this.current)) return Promise.resolve();
    return new Promise((resolve) => this.turnWaiters.push(resolve));
  }

  /** Takes one lifecycle step, if the lifecycle allows it; logs every move and every refusal. */
  step(event: LifecycleEvent): boolean {
    const next = transition(this.current, event);
    if (!next.ok) {
      this.logger.debug({ event: event.type, why: next.reason }, "task: step refused");
      return false;
    }
    this.logger.debug({ from: this.current.name, to: next.phase.name }, "task: phase");
    this.current = next.phase;
    if (next.phase.name === "ended") this.openEndedGate();
    if (turnStops(next.phase)) for (const wake of this.turnWaiters.splice(0)) wake();
    return true;
  }

  /** Progress of the task: out now, held while it is parked, dropped once it has ended. */
  progress(update: TaskStatusUpdateEvent): void {
    switch (progressFate(this.current)) {
      case "publish":
        this.channel.status(update);
        return;
      case "hold":
        this.held.push(update);
        return;
      case "drop":
        return;
    }
  }

  /** Back to work after its last pending prompt: the status saying so, then what was held. */
  resume(update: TaskStatusUpdateEvent): void {
    this.channel.status(update);
    this.releaseHeld();
  }

  releaseHeld(): void {
    for (const update of this.held.splice(0)) this.channel.status(restamped(update));
  }

  /** Stops background work of its runs (the runtime reports each one stopped); `reason` is ours. */
  stopBackground(
    work: readonly Pick<BackgroundTask, "taskId">[],
    session = this.lease?.session,
    reason?: string,
  ): void {
    for (const { taskId } of work) {
      const stopped =
        reason === undefined
          ? session?.stopBackgroundTask(taskId)
          : session?.stopBackgroundTask(taskId, reason);
      stopped?.catch((err: unknown) => {
        this.logger.warn({ err, backgroundTask: taskId }, "stopping background work failed");
      });
    }
  }
}
