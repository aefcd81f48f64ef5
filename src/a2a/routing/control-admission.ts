import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import {
  CONTROL_RECORD_KEY,
  controlRequested,
  type ControlRecord,
} from "../../contract/control.js";
import type { TaskRef } from "../../contract/messages.js";
import { isTerminalState } from "../../contract/task-states.js";
import { conversationKey, ownerOf } from "../../identity/conversation.js";
import { checkTarget, controlIntent } from "../control/rewind-fork-decision.js";
import type { ControlStart } from "../task/control-start.js";

/** What the executor's options say: its store, `server.control`, whether under worktrees. */
export interface ControlAdmissionDeps {
  readonly taskStore: TaskStore;
  /** `server.control.rewind` and `.fork`; unset: both off. */
  readonly control?: { readonly rewind: boolean; readonly fork: boolean } | undefined;
  readonly isolation?: unknown;
}

export type ControlAdmission =
  | { readonly ok: true; readonly control: ControlStart | undefined }
  | { readonly ok: false; readonly reason: string };

const recordOf = (task: Task): ControlRecord | undefined => {
  const r: unknown = task.metadata?.[CONTROL_RECORD_KEY];
  return r !== null && typeof r === "object" ? r : undefined;
};

/**
 * A new task's `metadata.rewindTo` / `metadata.forkOf` (docs/control.md): the decisions are
 * pure (`rewind-fork-decision.ts`); this reads what they need from the caller's own store, so a
 * task of another caller is as unknown as one that never was.
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
  if (intent.kind === "refuse") return { ok: false, reason: intent.reason };
  const id = intent.kind === "rewind" ? intent.to : intent.of;
  const stored = context && (await deps.taskStore.load(id, context));
  let othersInContext = 0;
  if (intent.kind === "fork" && context) {
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
  const source = conversationKey({
    owner: ownerOf(context as ServerCallContext),
    contextId: stored?.contextId ?? "",
  });
  return { ok: true, control: { kind: "fork", taskId: id, record, source } };
}
