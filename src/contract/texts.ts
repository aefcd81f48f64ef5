/**
 * Every text a client (or Claude, for a denial) reads from this server, defined once. The docs
 * quotes them ("Event stream contract", "Interactive tasks", "Loop protection", "Restart
 * recovery", "Limits"); a test holds the two to each other, so change both together.
 */
import { formatUsd, MAX_BUDGET_KEY, type BudgetSource } from "./usage.js";
import { EFFORT_KEY, MODEL_KEY } from "./task-options.js";

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);
const allowedList = (allowed: readonly string[]): string =>
  allowed.length === 0 ? "none" : allowed.map(json).join(", ");

/** A piece of background work as the texts name it. */
export interface WorkRef {
  readonly taskId: string;
  readonly description: string;
}

/** `4 h`, `90 min`, `45 s`, `1500 ms`: the largest unit that divides `ms` exactly. */
export function describeMs(ms: number): string {
  const units: [number, string][] = [
    [3_600_000, "h"],
    [60_000, "min"],
    [1_000, "s"],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return `${ms} ms`;
}

/** `sleep 2 (b1x2), npm test (b3y4)`: what a waiting task waits for. */
export function describeWork(work: readonly WorkRef[]): string {
  return work.map((w) => (w.description ? `${w.description} (${w.taskId})` : w.taskId)).join(", ");
}

export const TEXT = {
  // ---- statuses with a kind (docs/protocol.md "Event stream contract") ------------------------------
  toolUse: (toolName: string) => `Calling tool ${toolName}`,
  /** The call's output is in `metadata.output` (src/contract/tool-io.ts). */
  toolResult: (toolName: string, isError: boolean) =>
    isError ? `Tool ${toolName} failed` : `Tool ${toolName} finished`,
  /** A command the OS sandbox refused (`docs/sandbox.md`): the runtime's violation lines. */
  sandboxRefused: (toolName: string, lines: readonly string[]) =>
    `Refused by the sandbox: ${toolName} (${lines.join("; ")})`,
  resumed: "Resumed with the client's answer.",
  /** An operator (`server.operators`) answered another caller's task. */
  resumedByOperator: (operator: string) => `Resumed with the answer of operator ${operator}.`,
  queued: "Queued: another task is running in this context; this one starts when it ends.",
  queuedForProcess:
    "Queued: every Claude Code process this server may run (sessions.maxLive) is busy; this task starts when one frees.",
  wakeInterrupted:
    "A new message in this context interrupted this work; the output so far is kept.",
  restartedWhileRunning:
    "The server restarted while this task was running, so it was stopped. Send a new message in " +
    "the same context to continue: the conversation is kept.",
  restartedWhileParked:
    "The server restarted while this task was waiting for an answer; that question can no longer " +
    "be answered. Send a new message in the same context to continue: the conversation is kept.",
  backgroundWait: (running: readonly WorkRef[]) =>
    running.length > 0
      ? `Waiting for background work to finish: ${describeWork(running)}.`
      : "Waiting for Claude to take up the background work that finished.",
  backgroundFinished: (work: WorkRef & { status: string; summary?: string | undefined }) =>
    `Background task ${describeWork([work])} ${work.status}${work.summary ? `: ${work.summary}` : ""}`,
  backgroundStopped: (work: WorkRef, why: string) =>
    `Background task ${describeWork([work])} stopped: ${why}.`,
  backgroundTimeout: (ms: number, running: readonly WorkRef[]) =>
    `Stopped waiting for background work after ${ms} ms (claude.backgroundWaitTimeoutMs)${
      running.length > 0 ? `; still running: ${describeWork(running)}` : ""
    }. What it produces later arrives as a new task in this context.`,

  sessionReset: (previousSessionId: string, why: string) =>
    `The previous Claude session of this context (${previousSessionId}) cannot be ` +
    `resumed (${why}), so this task starts a fresh conversation: earlier messages of ` +
    `this context are not known to Claude.`,
  // Why a session cannot be resumed (in `sessionReset`).
  transcriptMissing: "its transcript no longer exists",
  firstPromptRejected: "its first prompt was rejected",
  // Why the server stopped background work (in `backgroundStopped`).
  backgroundLimit: (ms: number) =>
    `the server stopped it after ${describeMs(ms)} with no other activity in its session ` +
    `(sessions.maxBackgroundMs)`,
  serverStopping: "the server is stopping",

  // ---- input-required (docs/protocol.md "Interactive tasks") -----------------------------------------
  permissionRequest: (toolName: string, title: string | undefined) =>
    title ? `${title}.` : `Claude wants to use ${toolName}.`,

  fileTooLarge: (path: string, operation: string, size: number, max: number) =>
    `${path} was ${operation} (${size} bytes); its content is not attached because it exceeds the ${max}-byte artifact limit.`,
  diffTooLarge: (base: string, commit: string, size: number, max: number) =>
    `The diff of this task's changes (${size} bytes) is not attached because it exceeds the ${max}-byte artifact limit; see git diff ${base} ${commit}.`,

  // ---- unmarked statuses: canceled, failed, the start of an autonomous task ----------------
  worktreeFailed: (why: string) => `The conversation's git worktree could not be prepared: ${why}`,
  /** A completed task whose end-of-task commit failed (its repository is damaged). */
  commitFailed: (why: string) =>
    `The task's changes could not be committed: ${why}. They stay in the conversation's worktree; its next task's commit takes them.`,
  /**
   * A run the runtime could not authenticate (cause `authentication_failed`). The runtime's own
   * text ("Not logged in · Please run /login") names a slash command of its terminal, which no
   * A2A client can type: this says what to do where the server runs.
   */
  notLoggedIn:
    "Claude Code is not logged in on the machine running claude-a2a: run `claude` there once and log in, or set ANTHROPIC_API_KEY; `claude-a2a --check` tells what is missing",
  canceled: "Task canceled.",
  canceledByOperator: (operator: string) => `Task canceled by operator ${operator}.`,
  runEndedWithoutResult: "The Claude run ended without a result.",
  runInterrupted: (reason: string) => `Claude's run was interrupted: ${reason}`,
  /** Appended to a failed task's text: steering messages its run ended without (docs/control.md). */
  steeringNotTaken: (texts: readonly string[]) =>
    `${texts.length === 1 ? "A steering message was" : `${texts.length} steering messages were`} not delivered (the run ended before Claude took ${texts.length === 1 ? "it" : "them"}): ${texts.map((t) => JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}…` : t)).join(", ")}. Send ${texts.length === 1 ? "it" : "them"} again in a new message.`,
  inboxFailed: (error: string) => `Attached files could not be saved: ${error}`,
  didNotStart: (reason: string) => `This task did not start: ${reason}.`,
  internalError: (reason: string) => `Internal error: ${reason}`,
  promptRejected: (reason: string) =>
    `The model API rejected this prompt (${reason}); it was dropped from the conversation, so the next message in this context continues without it.`,
  inputTimeout: (ms: number) =>
    `Stopped: no answer came within ${ms} ms (claude.inputTimeoutMs); the request was denied.`,
  sameDenialAgain: (toolName: string) =>
    `Stopped: Claude requested the same denied permission again (${toolName}).`,
  tooManyDenials: (count: number, max: number, toolName: string) =>
    `Stopped: ${count} permission request(s) were denied in this task (claude.maxPermissionDenials is ${max}); the last was for ${toolName}.`,
  // ---- budgets (docs/limits.md "Cost and limits") ---------------------------------------------------
  budgetExceeded: (budgetUsd: number, spentUsd: number, source: BudgetSource) =>
    `Stopped: this task spent ${formatUsd(spentUsd)}, over its budget of ${formatUsd(budgetUsd)} (${source}).`,
  /** Why a message's `metadata.maxBudgetUsd` is refused (InvalidParams, before any task exists). */
  budgetNotANumber: (value: unknown) =>
    `metadata.${MAX_BUDGET_KEY} must be a number of US dollars greater than 0, got ${JSON.stringify(value) ?? String(value)}.`,
  budgetAboveLimit: (asked: number, limit: number) =>
    `metadata.${MAX_BUDGET_KEY} ${asked} is above this server's claude.maxBudgetUsd (${limit}): a task's budget may lower it, never raise it.`,
  // ---- a task's model and effort (docs/protocol.md "Per-task model and effort"), InvalidParams ----------
  modelNotAllowed: (asked: unknown, allowed: readonly string[]) =>
    `metadata.${MODEL_KEY} ${json(asked)} is not allowed on this server (claude.allowedModels); allowed: ${allowedList(allowed)}.`,
  effortNotAllowed: (asked: unknown, allowed: readonly string[]) =>
    `metadata.${EFFORT_KEY} ${json(asked)} is not allowed on this server (claude.allowedEfforts); allowed: ${allowedList(allowed)}.`,
  // ---- per-caller limits (docs/limits.md "Limits per caller"): refusals, and the stop after a turn ----
  tasksPerMinuteReached: (caller: string, max: number, wait: string, at: string) =>
    `Caller limit reached (tasksPerMinute): ${caller} may start at most ${max} task(s) per minute; try again in ${wait} (at ${at}).`,
  concurrentTasksReached: (caller: string, max: number, working: number) =>
    `Caller limit reached (concurrentTasks): ${caller} may have at most ${max} task(s) at once and has ${working} not yet ended; try again when one of them ends.`,
  dailyBudgetReached: (caller: string, spent: string, max: string, at: string, wait: string) =>
    `Caller limit reached (dailyBudgetUsd): ${caller} has spent ${spent} today of a daily budget of ${max}; new tasks are refused until it resets at 00:00 UTC (${at}, in ${wait}).`,
  budgetStop: (caller: string, spent: string, max: string, at: string, background: boolean) =>
    `Daily budget reached: ${caller} has spent ${spent} today of a daily budget of ${max} (dailyBudgetUsd), so this task stopped after its turn${background ? " and its background work was stopped" : ""}; new tasks are refused until 00:00 UTC (${at}).`,
  anonymousCaller: "the anonymous caller (unknown)",

  autonomousStart: (from: string | undefined) =>
    from === undefined
      ? "Claude started working by itself in this context."
      : `Claude started working by itself: background work of task ${from} finished.`,
} as const;

/** What Claude is told when a request of its is denied or withdrawn (a tool result). */
export const DENIAL = {
  /** The text a denial hands to Claude; the second sentence is what stops it asking again. */
  byClient: (reason: string | undefined) =>
    `The user denied this action${reason ? ` (${reason})` : ""}. Do not request the same permission again; pick another approach or finish the task and explain.`,
  stopped: "The task was stopped.",
  taskOver: "The task that owned this request has ended; no client can answer it.",
  withdrawn: "The request was withdrawn.",
  unowned:
    "No A2A task owns this work (Claude started it by itself, or its task has ended), so no client can answer this request. Continue without it.",
  malformedQuestion: "AskUserQuestion needs a non-empty questions list.",
  promptsOff: "permission prompts are turned off on this server",
} as const;
