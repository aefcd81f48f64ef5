import type { Message, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { ExecutionEventBus } from "@a2a-js/sdk/server";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type {
  BackgroundTask,
  ClaudeSession,
  RunStream,
  RunStreamEvent,
} from "../../claude/index.js";
import { parseConversationKey, type ConversationKey } from "../../identity/conversation.js";
import type { SessionLease } from "../../sessions/pool.js";
import { sessionResetText } from "../../sessions/recovery.js";
import { NOOP_SPAN, type SpanAttributes, type TraceSpan } from "../../tracing/tracing.js";

type ClientOrigin = Extract<TaskOrigin, { kind: "client" }>;
import { FileDelivery } from "../content/content-modes.js";
import { fileArtifact, type FileChange } from "../content/file-artifacts.js";
import { toUserPrompt } from "../content/input.js";
import { inputRequestContent } from "../interaction/answers.js";
import {
  AUTONOMOUS_PHASE,
  INITIAL_PHASE,
  progressFate,
  transition,
  turnStops,
  type LifecycleEvent,
  type TaskPhase,
} from "./lifecycle.js";
import { restamped, type TaskRef } from "../contract/messages.js";
import { status } from "../contract/statuses.js";
import { TEXT } from "../contract/texts.js";
import type { InputRequestEntry } from "../interaction/input-request-queue.js";
import { RunOutput } from "./run-output.js";
import { RunTrace } from "./run-trace.js";
import { TaskInputRequests } from "./input-requests.js";
import { TaskWorktree } from "./task-worktree.js";
import { BackgroundWait, settleFate } from "./background-wait.js";
import { EMPTY_USAGE, usageMetadata, type TaskUsage } from "../contract/usage.js";
import {
  addRunUsage,
  budgetStop,
  configuredBudget,
  withStoredUsage,
  type TaskBudget,
} from "./task-usage.js";
import type { TaskChannel } from "../handler/task-channel.js";
import {
  DENY_FOR_STOP,
  DENY_TASK_OVER,
  type TaskEnvironment,
  type TaskOrigin,
} from "./environment.js";

export interface ServerTaskOptions {
  /** The creating request's `acceptedOutputModes` (empty: anything), for the task's life. */
  readonly acceptedOutputModes?: readonly string[];
  /** The task's span: its runs' spans are its children. */
  readonly span?: TraceSpan;
}

/** What an answer settled: the request's tool, and a permission's decision or `question`. */
export interface AnsweredPrompt {
  readonly toolName: string;
  readonly answer: "allow" | "deny" | "question";
}

/**
 * One A2A task: the run its client's message started (or, for an autonomous task, the wake it
 * was created for), and the runs its background work causes later, over one or more A2A turns
 * (a turn stops when the task parks in input-required or ends). Its state is a `TaskPhase`
 * (`lifecycle.ts`); every step asks `transition` first, and every step after an await re-checks
 * the phase, so a task that ended takes no further step and publishes nothing more. It maps its
 * runs' events to the README's event contract and applies loop protection.
 *
 * Why it is over 300 lines: it is the one imperative shell of the task's state machine, the only
 * code that takes a lifecycle step, and each public method is a short sequence of steps,
 * publications and re-checks after awaits that only reads right in one place. What holds state
 * or decides lives beside it: the phase and its moves (`lifecycle.ts`), the prompts, loop
 * protection and the input timeout (`input-requests.ts`), the background work and its wait
 * (`background-wait.ts`), what a run shows (`run-output.ts`), the file artifacts the client takes
 * (`content-modes.ts`). Splitting the sequences too would spread one phase over several objects.
 */
export class ServerTask {
  private current: TaskPhase;
  private readonly prompts: TaskInputRequests;
  private readonly background: BackgroundWait;
  private readonly turnWaiters: (() => void)[] = [];
  private readonly endedGate: Promise<void>;
  private openEndedGate!: () => void;
  private lease: SessionLease | undefined;
  /** Active runs of this task, and what each shows the client. */
  private readonly runs = new Map<string, RunOutput>();
  /** Every run it ever owned: a late prompt of one (a background subagent) still reaches it. */
  private readonly ownedRuns = new Set<string>();
  /** Progress emitted while it was parked: published when an answer resumes it. */
  private readonly held: TaskStatusUpdateEvent[] = [];
  /** The text of its last completed run: the task's result. */
  private lastAnswer = "";
  /** File artifacts the client accepts; the others are listed in the final answer instead. */
  private readonly files: FileDelivery;
  /** What its runs cost so far: `metadata.usage` of its final status. */
  private usage: TaskUsage = EMPTY_USAGE;
  private readonly budget: TaskBudget | undefined;
  readonly span: TraceSpan;
  /** The ids every span of the task carries. */
  private readonly spanIds: SpanAttributes;
  /** Its conversation's worktree (`claude.isolation: "worktree"`), else undefined. */
  private readonly worktree: TaskWorktree | undefined;

  constructor(
    readonly channel: TaskChannel,
    private readonly origin: TaskOrigin,
    private readonly env: TaskEnvironment<ServerTask>,
    private readonly logger: Logger,
    /** Its caller's conversation (`conversation.ts`): the key of its session and turn queue. */
    readonly conversation: ConversationKey,
    options: ServerTaskOptions = {},
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
    this.prompts = new TaskInputRequests(env.policy, env.timers, () => this.onInputTimeout());
    this.budget =
      origin.kind === "client" ? origin.budget : configuredBudget(env.policy.maxBudgetUsd);
    this.endedGate = new Promise((resolve) => (this.openEndedGate = resolve));
    const conversationRef = { key: conversation, contextId: channel.ref.contextId };
    this.worktree =
      env.isolation && new TaskWorktree(env.isolation, conversationRef, channel.ref.taskId, logger);
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

  /**
   * The task's whole life: its client's run (the context is free again when that run is over),
   * then its background work; resolves when it holds nothing.
   */
  async run(): Promise<void> {
    try {
      if (this.origin.kind === "client") await this.start(this.origin);
    } catch (err) {
      this.logger.error({ err }, "task: unexpected failure");
      this.fail(TEXT.internalError(err instanceof Error ? err.message : String(err)));
    } finally {
      if (this.origin.kind === "client") this.origin.ticket.release();
    }
    await this.endedGate;
    if (this.current.name === "ended") this.worktree?.afterEnd(this.current.outcome.state);
    this.prompts.clearTimer();
    this.background.clearTimeout();
    this.prompts.settleAll(DENY_TASK_OVER);
    for (const runId of this.ownedRuns) this.env.disown(runId);
    this.lease?.release();
  }

  /**
   * Takes over a run already under way: the wake its background work caused (or, for an
   * autonomous task, the wake it was created for). False if the task cannot take it.
   */
  adopt(session: ClaudeSession, runId: string): boolean {
    if (this.ended) return false;
    if (this.current.name === "waiting" && !this.step({ type: "run_started" })) return false;
    const stream = session.follow(runId);
    if (stream === undefined) return false;
    this.lease ??= this.env.acquire(this.conversation);
    this.background.clearTimeout();
    void this.consume(stream, false);
    return true;
  }

  /** Background work launched by one of its runs; false if the task does not wait for it. */
  trackBackground(task: Pick<BackgroundTask, "taskId" | "description">): boolean {
    if (this.ended) return false;
    return this.background.track(task);
  }

  /** A piece of its background work finished: say so; its wake comes next. */
  backgroundFinished(task: BackgroundTask): void {
    if (this.ended || !this.background.finished(task.taskId)) return;
    this.progress(status.backgroundFinished(this.ref, task));
  }

  /** Its wake began, or its notification was folded into another turn: stop waiting for it. */
  backgroundConsumed(taskId: string): void {
    if (this.background.consumed(taskId)) this.settle();
  }

  /**
   * The client canceled (or `operator`, an operator acting for it): true if this ended the task
   * (it had not ended already).
   */
  cancel(bus: ExecutionEventBus, session: ClaudeSession | undefined, operator?: string): boolean {
    const running = this.background.running();
    const canceled = status.canceled(this.ref, operator);
    if (!this.end({ type: "canceled" }, canceled)) return false;
    this.channel.alsoOn(bus, canceled);
    // Its background work goes with it (the runtime reports each one stopped).
    for (const work of running) {
      session?.stopBackgroundTask(work.taskId).catch((err: unknown) => {
        this.logger.warn({ err, backgroundTask: work.taskId }, "stopping background work failed");
      });
    }
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
    if (this.prompts.unclaim(messageId)) this.onInputTimeout();
  }

  isClaimedBy(messageId: string): boolean {
    return this.current.name === "parked" && this.prompts.claimedBy(messageId);
  }

  /**
   * Hands the claimed answer to the waiting run. The next prompt, if one waits, is shown at once
   * in its place (the task stays parked, nothing WORKING in between); else the task resumes,
   * its `resumed` naming the `operator` who answered, if one did. Returns what was answered
   * (the operator's answer is logged with it), undefined if nothing was.
   */
  answer(message: Pick<Message, "messageId">, operator?: string): AnsweredPrompt | undefined {
    const claimed = this.prompts.claimedHead(message.messageId);
    if (claimed === undefined) return undefined;
    const resumed = (ref: TaskRef) => status.resumed(ref, operator);
    if (!this.leavePrompt(this.prompts.size > 1, resumed)) return undefined;
    const stop = this.prompts.settleAnswered(claimed);
    if (stop !== undefined) this.fail(stop);
    else this.afterPrompt();
    const { answer } = claimed;
    const toolName = claimed.entry.request.toolName;
    return answer.kind === "permission"
      ? { toolName, answer: answer.decision.decision }
      : { toolName, answer: "question" };
  }

  /** The runtime's `canUseTool` for a tool call of one of its runs. */
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
    const request = this.prompts.request(toolName, input, options);
    if (request.kind === "verdict") {
      if (request.verdict.stop !== undefined) this.fail(request.verdict.stop);
      return Promise.resolve(request.verdict.result);
    }
    // The runtime gave up the call (its turn was interrupted, the process ended).
    options.signal.addEventListener("abort", () => this.withdraw(request.entry), { once: true });
    this.showNext();
    return request.result;
  }

  /** A file one of its runs created or modified (PostToolUse hook). */
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

  private async start({ plan, ticket, settings }: ClientOrigin): Promise<void> {
    if (!ticket.immediate) {
      this.channel.status(status.queued(this.ref, "context"));
    }
    await Promise.race([ticket.ready, this.endedGate]);
    if (!this.step({ type: "granted" })) return;
    const cwd = await this.workFolder();
    if (cwd === undefined) return;
    if (plan.files.length > 0) {
      try {
        await this.env.inbox.write(cwd, plan.files);
      } catch (err) {
        this.logger.error({ err }, "inbox write failed");
        this.fail(TEXT.inboxFailed(String(err)));
        return;
      }
      if (this.ended) {
        // Canceled while its attachments were written: Claude never sees them, nothing keeps them.
        await this.env.inbox.remove(cwd, this.ref.taskId).catch((err: unknown) => {
          this.logger.warn({ err }, "inbox cleanup failed");
        });
        return;
      }
    }
    if (!(await this.processSlot())) return;
    this.lease = this.env.acquire(this.conversation);
    if (this.lease.reset !== undefined) {
      // Still submitted: the prompt is not with Claude yet; the client learns why it starts over.
      this.channel.status(status.sessionReset(this.ref, sessionResetText(this.lease.reset)));
    }
    await this.consume(this.lease.session.stream(toUserPrompt(plan), settings), true);
  }

  /**
   * Where the task works: the workspace, or its conversation's worktree, created on its first
   * task. Undefined if the task ended meanwhile, or the worktree could not be made (it fails).
   */
  private async workFolder(): Promise<string | undefined> {
    if (this.worktree === undefined) return this.env.cwd;
    try {
      const cwd = await this.worktree.prepare();
      return this.ended ? undefined : cwd;
    } catch (err) {
      this.logger.error({ err }, "task: the conversation's worktree could not be prepared");
      this.fail(TEXT.worktreeFailed(err instanceof Error ? err.message : String(err)));
      return undefined;
    }
  }

  /**
   * A context without a live process waits until one fits under `sessions.maxLive`. False if the
   * task ended meanwhile (the slot kept for it is given back).
   */
  private async processSlot(): Promise<boolean> {
    const waits = this.env.mustWait(this.conversation);
    if (waits) {
      this.channel.status(status.queued(this.ref, "process"));
    }
    const abort = new AbortController();
    let waiting = true;
    // Only a wait under way is left: aborting later would cost an AbortError for nothing.
    void this.endedGate.then(() => waiting && abort.abort());
    try {
      await this.env.whenFree(this.conversation, abort.signal);
    } catch (err) {
      // Ended while waiting (it left the queue), or no process will come: the server is stopping.
      if (!this.ended) this.fail(TEXT.didNotStart((err as Error).message));
      return false;
    } finally {
      waiting = false;
    }
    if (this.ended) {
      this.env.forgo();
      return false;
    }
    if (waits) this.logger.debug("task: a Claude Code process freed for it");
    return true;
  }

  /** Reads a run to its terminal event, whatever the task's phase: only then is the run over. */
  private async consume(stream: RunStream, foreground: boolean): Promise<void> {
    const runId = stream.runId;
    this.ownedRuns.add(runId);
    this.env.own(runId, this);
    const streaming = this.env.streaming;
    const coalescing = streaming && { timers: this.env.timers, ...streaming };
    const progress = (update: TaskStatusUpdateEvent) => this.progress(update);
    this.runs.set(runId, new RunOutput(this.ref, runId, this.channel, progress, coalescing));
    const ids = { ...this.spanIds, "claude.run.id": runId };
    const origin = foreground ? "foreground" : "autonomous";
    const trace = new RunTrace(
      this.span.child("claude.run", { ...ids, "claude.run.origin": origin }),
      ids,
    );
    for await (const event of stream) {
      trace.onEvent(event);
      this.handle(runId, foreground, event);
    }
    if (this.runs.delete(runId) && !this.ended) {
      this.fail(TEXT.runEndedWithoutResult);
    }
  }

  private handle(runId: string, foreground: boolean, event: RunStreamEvent): void {
    const output = this.runs.get(runId);
    switch (event.kind) {
      case "prompt_sent":
        if (this.step({ type: "prompt_sent" })) {
          this.channel.status(status.working(this.ref));
          this.showNext();
        }
        return;
      case "run_completed":
      case "run_failed":
      case "run_interrupted": {
        this.runs.delete(runId);
        if (this.ended) return;
        output?.finish();
        // A failed run fails the task anyway, with its own reason.
        const over = event.kind === "run_failed" ? undefined : budgetStop(this.usage, this.budget);
        if (over !== undefined) this.stopForBudget(over);
        else this.onRunEnded(foreground, event);
        return;
      }
      default:
        if (event.kind === "result") {
          this.usage = addRunUsage(this.usage, event.usage);
          // A run that outlived its task (canceled, stopped by loop protection) costs too.
          if (this.ended) this.channel.amendStored(withStoredUsage(this.usage));
        }
        if (!this.ended) output?.onEvent(event);
        return;
    }
  }

  private onRunEnded(
    foreground: boolean,
    event: Extract<RunStreamEvent, { kind: `run_${string}` }>,
  ): void {
    switch (event.kind) {
      case "run_completed":
        if (event.text !== "") this.lastAnswer = event.text;
        this.settle();
        return;
      case "run_failed":
        this.fail(this.failedText(event));
        return;
      case "run_interrupted":
        if (foreground) {
          this.fail(TEXT.runInterrupted(event.reason));
        } else if (this.origin.kind === "autonomous") {
          // Only the session's handoff interrupts a wake we did not stop: a new message came.
          this.complete(TEXT.wakeInterrupted);
        } else {
          this.progress(status.wakeInterrupted(this.ref));
          this.settle();
        }
        return;
    }
  }

  /** What the client is told about a failed run; the runtime's own words go to the log. */
  private failedText(event: Extract<RunStreamEvent, { kind: "run_failed" }>): string {
    switch (event.cause) {
      case "authentication_failed":
        this.logger.warn(
          { runId: event.runId, runtimeText: event.reason },
          "task failed: Claude Code is not logged in (see claude-a2a --check)",
        );
        return TEXT.notLoggedIn;
      case "prompt_rejected":
        return TEXT.promptRejected(event.reason);
      case undefined:
        return event.reason;
    }
  }

  /** The run that crossed its budget has ended: the task fails, and its background work stops. */
  private stopForBudget(text: string): void {
    const running = this.background.running();
    this.fail(text);
    for (const work of running) {
      this.lease?.session
        .stopBackgroundTask(work.taskId, "its task's budget is spent")
        .catch((err: unknown) => {
          this.logger.warn({ err, backgroundTask: work.taskId }, "stopping background work failed");
        });
    }
  }

  /** With no run active: done, or waiting for its background work (not past the daily budget). */
  private settle(): void {
    if (this.ended || this.runs.size > 0 || this.current.name === "parked") return;
    const stop = this.env.budgetStop(this.conversation, this.background.running().length > 0);
    if (stop !== undefined) {
      this.stopForDailyBudget(stop);
      return;
    }
    switch (settleFate(this.current, this.runs.size > 0, this.background.pending)) {
      case "stay":
        return;
      case "complete":
        this.complete();
        return;
      case "wait":
        if (!this.step({ type: "run_ended" })) return;
        this.channel.status(status.backgroundWait(this.ref, this.background.running()));
        this.background.armTimeout((ms, running) => {
          if (this.current.name !== "waiting") return;
          this.channel.status(status.backgroundTimeout(this.ref, ms, running));
          this.complete();
        });
        return;
    }
  }

  /**
   * Its caller's spend reached the daily budget: the turn under way has finished, nothing more
   * runs (its background work is stopped, the wakes it would cause never come), and it completes
   * with the answer it has, saying why.
   */
  stopForDailyBudget(text: string): void {
    if (this.ended) return;
    for (const work of this.background.running()) {
      this.lease?.session
        .stopBackgroundTask(work.taskId, "daily budget reached")
        .catch((err: unknown) => {
          this.logger.warn({ err, backgroundTask: work.taskId }, "stopping background work failed");
        });
    }
    this.logger.info("task: stopped after its turn, its caller's daily budget is reached");
    this.complete(text, true);
  }

  /**
   * Ends the task COMPLETED with its last answer (and, if given, why it stopped there: with
   * `budgetReached`, a `budget_reached` status).
   */
  private complete(note?: string, budgetReached = false): void {
    if (this.ended) return;
    // With a worktree: the task's changes are committed first, so its end can say what it holds.
    if (this.worktree?.holdCompletion(() => this.complete(note, budgetReached))) return;
    // Prompts of subagents that outlived the turn: no client will be asked them any more.
    this.prompts.settleAll(DENY_TASK_OVER);
    if (!this.step({ type: "completed" })) return;
    this.prompts.clearTimer();
    this.background.clearTimeout();
    for (const output of this.runs.values()) output.finish();
    // No prompt is pending any more: what was held while one was shown goes out before the end.
    this.releaseHeld();
    const diff = this.worktree?.diffArtifact();
    if (diff !== undefined && this.files.admit(diff)) {
      const { taskId, contextId } = this.ref;
      const update = { taskId, contextId, artifact: diff, append: false, lastChunk: true };
      this.channel.artifact({ ...update, metadata: undefined });
    }
    const shown = this.files.finalText(this.lastAnswer);
    if (shown !== "") {
      this.channel.status(status.result(this.ref, shown));
    }
    this.channel.status(
      this.withUsage(
        budgetReached && note !== undefined
          ? status.budgetReached(this.ref, note)
          : status.completed(this.ref, note),
      ),
    );
  }

  /** A final status carries what the task cost (and so does the stored task: the SDK merges). */
  private withUsage(event: TaskStatusUpdateEvent): TaskStatusUpdateEvent {
    event.metadata = {
      ...event.metadata,
      ...usageMetadata(this.usage),
      ...this.worktree?.metadata(),
    };
    return event;
  }

  private fail(reason: string): void {
    this.end({ type: "failed", reason }, status.failed(this.ref, reason));
  }

  /** Ends the task now: the text so far is closed, one terminal status, every prompt settled. */
  private end(event: LifecycleEvent, status: TaskStatusUpdateEvent): boolean {
    if (!this.step(event)) return false;
    this.prompts.clearTimer();
    this.background.clearTimeout();
    this.held.length = 0;
    for (const output of this.runs.values()) output.finish();
    this.channel.status(this.withUsage(status));
    this.prompts.settleAll(DENY_FOR_STOP);
    for (const runId of this.runs.keys()) this.lease?.session.cancelRun(runId, "task ended");
    return true;
  }

  /**
   * Shows the oldest prompt the client has not seen, if the task is not showing one. Parked with
   * an unshown head: the prompt before it was just settled, and the task stayed parked for it.
   */
  private showNext(): void {
    const head = this.prompts.unshownHead();
    if (head === undefined) return;
    if (this.current.name !== "parked") {
      if (this.current.name !== "running" && this.current.name !== "waiting") return;
      if (!this.step({ type: "input_needed" })) return;
    }
    this.channel.status(
      status.inputRequired(this.ref, inputRequestContent(this.prompts.show(head))),
    );
  }

  /** A prompt was answered or withdrawn: the next one, or back to work (or done). */
  private afterPrompt(): void {
    this.showNext();
    if (this.current.name === "waiting") this.settle();
  }

  private withdraw(entry: InputRequestEntry): void {
    const withdrawal = this.prompts.withdraw(entry);
    if (withdrawal === "settled_already") return;
    this.logger.debug(
      { toolName: entry.request.toolName },
      "task: prompt withdrawn by the runtime",
    );
    if (withdrawal === "shown" && this.leavePrompt(this.prompts.size > 0, status.working)) {
      this.afterPrompt();
    }
  }

  /**
   * The shown prompt is settled (answered or withdrawn): the step out of it; unless another
   * prompt waits to be shown in its place, back to work with `resumed`, then what was held.
   */
  private leavePrompt(
    promptWaiting: boolean,
    resumed: (ref: TaskRef) => TaskStatusUpdateEvent,
  ): boolean {
    const runActive = this.runs.size > 0;
    if (!this.step({ type: "answered", runActive, promptWaiting })) return false;
    this.prompts.clearTimer();
    if (!promptWaiting) this.resume(resumed(this.ref));
    return true;
  }

  /** Progress of the task: out now, held while it is parked, dropped once it has ended. */
  private progress(update: TaskStatusUpdateEvent): void {
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
  private resume(update: TaskStatusUpdateEvent): void {
    this.channel.status(update);
    this.releaseHeld();
  }

  private releaseHeld(): void {
    for (const update of this.held.splice(0)) this.channel.status(restamped(update));
  }

  /** The shown prompt's input timeout fired (or applies now: its answering request failed). */
  private onInputTimeout(): void {
    // An answer on its way wins, unless its request fails (see unclaim).
    if (this.current.name !== "parked" || this.prompts.deferTimeout()) return;
    this.fail(TEXT.inputTimeout(this.env.policy.inputTimeoutMs ?? 0));
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
