import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { ConversationKey } from "../../identity/conversation.js";
import type { SessionLease } from "../../sessions/pool.js";
import type { Timers } from "../../common/timers.js";
import type { RefusedFileError } from "../../common/safe-files.js";
import type { InboxFile } from "../../workspace/inbox.js";
import type { TaskCommit } from "../../workspace/worktrees/commit.js";
import type { WorktreeRewind } from "../../workspace/worktrees/rewind.js";
import type { ControlEnvironment, ControlStart } from "./control-start.js";
import type { PromptPlan } from "../content/input.js";
import { DENIAL } from "../../contract/texts.js";
import type { TaskBudget } from "./task-usage.js";
import type { TurnSettings } from "../../claude/index.js";
import type { ModelPolicy } from "../../contract/task-options.js";
import type { SandboxPolicy } from "../../sandbox/narrowing.js";
import type { PermissionModePolicy } from "../control/permission-mode.js";
import type { DeliveryPlan, DeliveryPolicy } from "../../delivery/decision.js";
import type { DeliveryRunner } from "../../delivery/runner.js";

/**
 * A task's place in its conversation's queue (routing/context-queue.ts): `ready` resolves when it
 * is the conversation's turn; `release()` (done, failed or canceled while waiting) lets the next
 * one in.
 */
export interface Ticket {
  /** True when the ticket was granted at once (nothing ahead of it). */
  readonly immediate: boolean;
  readonly ready: Promise<void>;
  release(): void;
}

/** What the server around a task provides it, and the fixed texts it says. */

export interface TurnPolicy {
  readonly permissionPrompts: "input-required" | "deny";
  readonly maxPermissionDenials: number;
  readonly inputTimeoutMs: number | undefined;
  /** "wait": a task whose run ended stays working until its background work is done. */
  readonly backgroundTasks: "wait" | "detach";
  readonly backgroundWaitTimeoutMs: number;
  /** `claude.maxBudgetUsd`: what a task may spend unless its message lowered it. */
  readonly maxBudgetUsd: number | undefined;
  /** The models and efforts a message may ask for (unset: a message chooses neither). */
  readonly models?: ModelPolicy;
  /** What a message's `metadata.sandbox` may narrow (unset: a message narrows nothing). */
  readonly sandbox?: SandboxPolicy;
  /** The permission modes a message may ask for, and the workspace's (unset: none asked). */
  readonly permissionModes?: PermissionModePolicy;
  /** What a message's `metadata.deliver` may ask (unset: the key is not read). */
  readonly delivery?: DeliveryPolicy;
}

/** Where attachments go: the workspace's inbox (a seam, so a test can hold a write). */
export interface Inbox {
  write(cwd: string, files: readonly InboxFile[]): Promise<void>;
  /** Removes what was written for a task that ended before Claude saw it (its `folder`). */
  remove(cwd: string, folder: string): Promise<void>;
}

/** Where a fork's worktree starts: the commit a task of its source conversation ended at. */
export interface ForkFrom {
  readonly commit: string;
  readonly source: { key: ConversationKey; contextId: string };
}

/**
 * `claude.isolation: "worktree"`: each conversation works in a git worktree of its own
 * (`src/workspace/worktrees/`), and each task's changes are committed there when it ends.
 */
export interface TaskIsolation {
  /**
   * Creates the conversation's worktree if it has none (on a new branch from `from`, a fork's
   * commit in its source conversation, else the workspace's HEAD at startup); resolves with the
   * folder it runs in.
   */
  prepare(
    conversation: { key: ConversationKey; contextId: string },
    from?: ForkFrom,
  ): Promise<string>;
  /** The commit its worktree has checked out (a task records where it began). */
  head?(conversation: { key: ConversationKey; contextId: string }): Promise<string>;
  /** A rewind: the worktree back at `commit`, the later commits kept on a branch. */
  rewind?(
    conversation: { key: ConversationKey; contextId: string },
    commit: string,
    taskId: string,
  ): Promise<WorktreeRewind>;
  /** The diff a rewind to `commit` would apply (a dry run). */
  diffTo?(
    conversation: { key: ConversationKey; contextId: string },
    commit: string,
  ): Promise<string>;
  /** Commits what changed in it, for the task that ended `state`; undefined: nothing did. */
  finish(
    conversation: { key: ConversationKey; contextId: string },
    taskId: string,
    state: string,
  ): Promise<TaskCommit | undefined>;
}

/**
 * What a task needs from the server around it. `Task` is the task object that owns runs (the
 * executor's `ServerTask`), a parameter so this module does not import the task it serves.
 */
export interface TaskEnvironment<Task = unknown> {
  readonly cwd: string;
  readonly policy: TurnPolicy;
  readonly timers: Timers;
  readonly inbox: Inbox;
  /** A file the server refused to read or write (an artifact, an attachment): counted. */
  readonly fileRefused?: (refusal: RefusedFileError) => void;
  /** Unset: every conversation works in the workspace itself (`claude.isolation: "shared"`). */
  readonly isolation?: { readonly worktrees: TaskIsolation; readonly maxDiffBytes: number };
  /** Runs a delivery's checks (docs/delivery.md); unset: a task with a delivery fails it. */
  readonly delivery?: DeliveryRunner;
  /** Rewind and fork (the control extension); unset: both off. */
  readonly control?: ControlEnvironment;
  /** How streamed text is gathered; undefined: one event per model delta. */
  readonly streaming: { readonly flushMs: number; readonly maxChunkChars: number } | undefined;
  /** `artifacts.maxToolOutputBytes`; undefined: the default (src/contract/tool-io.ts). */
  readonly toolOutputBytes?: number;
  /** The Claude session of a conversation (a caller's context: `conversation.ts`). */
  acquire(conversation: ConversationKey): SessionLease;
  /** Whether a new process for the conversation must wait for one to free (`sessions.maxLive`). */
  mustWait(conversation: ConversationKey): boolean;
  /**
   * Resolves when a new conversation's process fits under `sessions.maxLive` (the slot is kept
   * for the next `acquire`); rejects when `signal` aborts.
   */
  whenFree(conversation: ConversationKey, signal: AbortSignal): Promise<void>;
  /** Gives back a slot `whenFree` kept for a task that will not acquire after all. */
  forgo(conversation: ConversationKey): void;
  /**
   * If the conversation's caller has reached its daily budget (`limits.*.dailyBudgetUsd`): the
   * text a task stops with after its turn (`background`: it had background work, now stopped).
   */
  budgetStop(conversation: string, background: boolean): string | undefined;
  /** Counts what a peer reported a delegated call cost against the caller's daily budget. */
  chargeDelegated?(conversation: string, usd: number): void;
  /** From now on, prompts and file changes of `runId` reach this task. */
  own(runId: string, task: Task): void;
  disown(runId: string): void;
}

export const DENY_FOR_STOP: PermissionResult = {
  behavior: "deny",
  message: DENIAL.stopped,
  interrupt: true,
};
export const DENY_TASK_OVER: PermissionResult = { behavior: "deny", message: DENIAL.taskOver };
export const DENY_WITHDRAWN: PermissionResult = { behavior: "deny", message: DENIAL.withdrawn };

/** How a task came to be: a client's message, or a wake no task owned. */
export type TaskOrigin =
  | {
      readonly kind: "client";
      readonly plan: PromptPlan;
      readonly ticket: Ticket;
      /** Its message's budget (`metadata.maxBudgetUsd`), else the configured one. */
      readonly budget: TaskBudget | undefined;
      /** Its message's model and effort (`metadata.model`, `metadata.effort`); {}: defaults. */
      readonly settings: TurnSettings;
      /** Its message's rewind or fork (`metadata.rewindTo`, `metadata.forkOf`). */
      readonly control?: ControlStart;
      /** Its message's delegation depth (`metadata.delegationDepth`; 0: not a delegated call). */
      readonly depth?: number;
      /** Its message's delivery (`metadata.deliver`, docs/delivery.md); unset: none. */
      readonly deliver?: DeliveryPlan | undefined;
    }
  | { readonly kind: "autonomous" };
