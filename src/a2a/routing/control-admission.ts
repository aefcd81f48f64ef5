import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import {
  CONTROL_RECORD_KEY,
  controlRequested,
  type ControlRecord,
} from "../../contract/control.js";
import type { TaskRef } from "../../contract/messages.js";
import { isTerminalState } from "../../contract/task-states.js";
import {
  callContextOf,
  conversationKey,
  ownerOf,
  type ConversationKey,
} from "../../identity/conversation.js";
import { checkTarget, controlIntent, type ControlCheck } from "../control/rewind-fork-decision.js";
import { resumePointOf } from "../control/rewind-fork-point.js";
import type { ControlEnvironment, ControlStart } from "../task/control-start.js";
import { refuse, type Checked } from "../../common/refusal.js";

/** The operator role (`server.operators`): who has it, and whose a task is. */
export interface OperatorTasks {
  /** The scopes of the callers with the role. */
  readonly operators: ReadonlySet<string>;
  ownerOf(taskId: string, tenant: string): Promise<string | undefined>;
}

/** What the executor's options say: its store, `server.control`, whether under worktrees. */
export interface ControlAdmissionDeps {
  /** An operator may fork another caller's task (unset: nobody has the role). */
  readonly operatorTasks?: OperatorTasks;
  readonly taskStore: TaskStore;
  /** `server.control.rewind` and `.fork`; unset: both off. */
  readonly control?: { readonly rewind: boolean; readonly fork: boolean } | undefined;
  readonly isolation?: unknown;
}

export type ControlAdmission = Checked<{ readonly control: ControlStart | undefined }>;

const recordOf = (task: Task): ControlRecord | undefined => {
  const r: unknown = task.metadata?.[CONTROL_RECORD_KEY];
  return r !== null && typeof r === "object" ? r : undefined;
};

/**
 * The task a fork names and the scope it is in: the caller's own, or, for an operator, its
 * owner's. A rewind is always the caller's own: it is new work in the task's conversation, and an
 * operator never starts work in another caller's conversation (docs/security.md#operators); a
 * fork's new conversation is the operator's own.
 */
async function lookUp(
  deps: ControlAdmissionDeps,
  id: string,
  fork: boolean,
  context: ServerCallContext,
): Promise<{ stored: Task | undefined; owner: string }> {
  const caller = ownerOf(context);
  const own = await deps.taskStore.load(id, context);
  const ops = deps.operatorTasks;
  if (own !== undefined || !fork || ops === undefined || !ops.operators.has(caller)) {
    return { stored: own, owner: caller };
  }
  const owner = await ops.ownerOf(id, context.tenant ?? "");
  if (owner === undefined || owner === caller) return { stored: undefined, owner: caller };
  return { stored: await deps.taskStore.load(id, callContextOf(owner)), owner };
}

/**
 * A new task's `metadata.rewindTo` / `metadata.forkOf` (docs/control.md): the decisions are
 * pure (`rewind-fork-decision.ts`); this reads what they need from the caller's own store, so a
 * task of another caller is as unknown as one that never was (but to an operator's fork).
 */
export async function admitControl(
  deps: ControlAdmissionDeps,
  /** Tasks holding or waiting for the conversation (the new one not yet counted). */
  depth: number,
  message: Message,
  { taskId, contextId }: TaskRef,
  context: ServerCallContext | undefined,
): Promise<ControlAdmission> {
  const intent = controlIntent({
    metadata: message.metadata,
    extensionActive: controlRequested(context?.requestedExtensions),
    enabled: deps.control ?? { rewind: false, fork: false },
    // The SDK names the new task in the message it hands over: only another id is an existing one.
    hasTaskId: message.taskId !== "" && message.taskId !== taskId,
  });
  if (intent.kind === "none") return { ok: true, control: undefined };
  if (intent.kind === "refuse") return refuse(intent.reason);
  const id = intent.kind === "rewind" ? intent.to : intent.of;
  const found = context && (await lookUp(deps, id, intent.kind === "fork", context));
  const stored = found?.stored;
  let othersInContext = 0;
  // A new context (the guard's message without one): nothing can be in it.
  if (intent.kind === "fork" && context && contextId !== "") {
    const listed = await deps.taskStore.list(
      {
        tenant: "",
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 2,
        pageToken: "",
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      },
      context,
    );
    othersInContext = listed.tasks.filter((t) => t.id !== taskId).length;
  }
  const target = stored && {
    contextId: stored.contextId,
    ended: stored.status !== undefined && isTerminalState(stored.status.state),
    record: recordOf(stored),
  };
  const checked = checkTarget({
    intent,
    target,
    contextId,
    othersActive: depth,
    othersInContext,
    worktree: deps.isolation !== undefined,
  });
  if (!checked.ok) return checked;
  const record = target?.record as ControlRecord;
  if (intent.kind === "rewind") {
    return { ok: true, control: { kind: "rewind", taskId: id, record, dryRun: intent.dryRun } };
  }
  const source = conversationKey({ owner: found?.owner ?? "", contextId: stored?.contextId ?? "" });
  return { ok: true, control: { kind: "fork", taskId: id, record, source } };
}

/** What the request guard's check reads besides the admission's: the runtime's transcripts. */
export interface ControlCheckDeps extends ControlAdmissionDeps {
  /** The runtime's transcript of a session under a conversation's folder ("" when there is none). */
  readonly controlEnv?: Pick<ControlEnvironment, "transcript">;
}

/**
 * The request guard's check of `metadata.rewindTo` / `metadata.forkOf` (docs/control.md): the
 * admission the task's start would make, and whether the named task is still on its
 * conversation's branch of the transcript, so a refusal is the request's error and no task is
 * stored. The task's start decides again (a task may have entered the conversation meanwhile).
 */
export type ControlChecker = (
  message: Message,
  context: ServerCallContext,
) => Promise<ControlCheck>;

/** `depth`: tasks holding or waiting for a conversation (the executor's queue). */
export function controlChecker(
  deps: ControlCheckDeps,
  depth: (conversation: ConversationKey) => number,
): ControlChecker {
  return async (message, context) => {
    const contextId = message.contextId;
    const key = conversationKey({ owner: ownerOf(context), contextId });
    const queued = contextId === "" ? 0 : depth(key);
    const admitted = await admitControl(deps, queued, message, { taskId: "", contextId }, context);
    if (!admitted.ok) return { kind: "refused", reason: admitted.reason };
    const control = admitted.control;
    if (control === undefined) return { kind: "none" };
    const env = deps.controlEnv;
    if (env === undefined) return { kind: "admitted" };
    const { sessionId, promptUuid } = control.record as Required<ControlRecord>;
    const transcript = env.transcript(sessionId, control.kind === "rewind" ? key : control.source);
    const at = resumePointOf(control.kind, control.taskId, promptUuid, transcript);
    return at.ok ? { kind: "admitted" } : { kind: "refused", reason: at.reason };
  };
}
