import type { Logger } from "pino";
import type { RefusedFileError } from "../../common/safe-files.js";
import { realTimers, type Timers } from "../../common/timers.js";
import { parseConversationKey } from "../../identity/conversation.js";
import type { SessionPool } from "../../sessions/pool.js";
import type { Tracing } from "../../tracing/tracing.js";
import { removeInboxFolder, writeInbox } from "../../workspace/inbox.js";
import type { Inbox, TaskEnvironment, TurnPolicy } from "../task/environment.js";
import type { ServerTask } from "../task/server-task.js";
import type { ControlEnvironment } from "../task/control-start.js";
import type { AutonomousTasks } from "./autonomous-tasks.js";
import type { OperatorTasks } from "./control-admission.js";
import type { CallerAccounting } from "./caller-accounting.js";
import type { RunOwnership } from "./run-ownership.js";
import type { TaskOutlets } from "./task-channels.js";

export interface ExecutorOptions extends TaskOutlets {
  readonly pool: SessionPool;
  /** The workspace: inbox files are written under it. */
  readonly cwd: string;
  readonly policy: TurnPolicy;
  readonly logger: Logger;
  /** Which task owns what (task, run and background task ids); the bus manager reads it too. */
  readonly ownership: RunOwnership<ServerTask>;
  /** Opens the task of a wake no task owns. */
  readonly autonomous: AutonomousTasks;
  readonly timers?: Timers;
  readonly inbox?: Inbox;
  /** A file the server refused to read or write in the workspace (the metrics count it). */
  readonly fileRefused?: (refusal: RefusedFileError) => void;
  /** How streamed text is gathered (`streaming.*`); undefined: one event per model delta. */
  readonly streaming?: { readonly flushMs: number; readonly maxChunkChars: number };
  /** `artifacts.maxToolOutputBytes`: the cap of a tool call's input and output on the stream. */
  readonly toolOutputBytes?: number;
  /** Per-caller limits: told of every task and of what each run cost (unset: none configured). */
  readonly accounting?: CallerAccounting;
  /** Spans of tasks, runs and tool calls (default: off). */
  readonly tracing?: Tracing;
  /** `server.control.rewind` / `.fork`, and what they need of the server (unset: both off). */
  readonly control?: { readonly rewind: boolean; readonly fork: boolean };
  readonly controlEnv?: ControlEnvironment;
  /** `server.operators`: an operator may fork another caller's task. */
  readonly operatorTasks?: OperatorTasks;
  /** `claude.isolation: "worktree"`: each conversation's worktree (unset: the shared workspace). */
  readonly isolation?: TaskEnvironment["isolation"];
  /** A trigger's permission prompts (`triggers.<name>.permissions`); unset: every trigger denies. */
  readonly triggerPrompts?: (trigger: string) => TurnPolicy["permissionPrompts"] | undefined;
  /** Runs deliveries' checks (`claude.delivery`, docs/delivery.md); unset: none configured. */
  readonly delivery?: TaskEnvironment["delivery"] | undefined;
}

const defaultInbox: Inbox = { write: writeInbox, remove: removeInboxFolder };

/** What every task of the executor works with: the pool, run ownership, the limits, as a task sees them. */
export function taskEnvironment(options: ExecutorOptions): TaskEnvironment<ServerTask> {
  const { pool, ownership, accounting } = options;
  return {
    cwd: options.cwd,
    policy: options.policy,
    timers: options.timers ?? realTimers,
    inbox: options.inbox ?? defaultInbox,
    ...(options.fileRefused && { fileRefused: options.fileRefused }),
    streaming: options.streaming,
    ...(options.toolOutputBytes !== undefined && { toolOutputBytes: options.toolOutputBytes }),
    ...(options.isolation && { isolation: options.isolation }),
    ...(options.controlEnv && { control: options.controlEnv }),
    ...(options.delivery && { delivery: options.delivery }),
    acquire: (contextId) => pool.acquire(contextId),
    mustWait: (contextId) => pool.wouldWait(contextId),
    whenFree: (contextId, signal) => pool.whenFree(contextId, signal),
    forgo: (contextId) => pool.forgo(contextId),
    own: (runId, task) => ownership.own(runId, task),
    disown: (runId) => ownership.disown(runId),
    budgetStop: (conversation, background) => {
      const owner = parseConversationKey(conversation)?.owner;
      return owner === undefined ? undefined : accounting?.budgetStop(owner, background);
    },
    chargeDelegated: (conversation, usd) => {
      const owner = parseConversationKey(conversation)?.owner;
      if (owner !== undefined) accounting?.chargeDelegated(owner, usd);
    },
  };
}
