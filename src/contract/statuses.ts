import { TaskState, type Message, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { InputRequestContent } from "./data-parts.js";
import { DELIVERY_TEXT, type CheckRun } from "./delivery.js";
import { DELEGATED_TASKS_KEY, DELEGATION_TEXT, type DelegatedTaskRef } from "./delegation.js";
import { KIND, type StatusKind } from "./kinds.js";
import {
  agentMessage,
  dataPart,
  statusUpdate,
  textPart,
  type Metadata,
  type TaskRef,
} from "./messages.js";
import { ANSWERED_BY_KEY, CANCELED_BY_KEY } from "./operator.js";
import { TEXT, type WorkRef } from "./texts.js";
import { TOOL_IO_KEYS } from "./tool-io.js";

/**
 * One factory per status docs/protocol.md documents, so a call site names what it says and never
 * pairs a kind with the wrong state or text. The kind is on the message only: the SDK merges a
 * status event's own metadata into the stored task's, where an intermediate kind would outlive
 * its turn.
 */
function kindStatus(
  ref: TaskRef,
  state: TaskState,
  kind: StatusKind,
  text: string,
  extra: Metadata = {},
): TaskStatusUpdateEvent {
  return statusUpdate(ref, state, agentMessage(ref, [textPart(text)], { kind, ...extra }));
}

/** An unmarked status message (failed, canceled): clients treat it as plain text. */
function plainStatus(ref: TaskRef, state: TaskState, text: string): TaskStatusUpdateEvent {
  return statusUpdate(ref, state, agentMessage(ref, [textPart(text)]));
}

const WORKING = TaskState.TASK_STATE_WORKING;
const SUBMITTED = TaskState.TASK_STATE_SUBMITTED;

/** A piece of background work that ended, as the runtime reported it. */
export interface FinishedWork extends WorkRef {
  readonly status: string;
  readonly summary?: string | undefined;
  /** Set when the server stopped it: why (`sessions.maxBackgroundMs`, shutdown). */
  readonly stopReason?: string | undefined;
}

export const status = {
  /** Claude took the prompt (no message). */
  working: (ref: TaskRef): TaskStatusUpdateEvent => statusUpdate(ref, WORKING),
  /**
   * `io`: the call's input, capped (`toolInput`, src/contract/tool-io.ts); unset: not shown.
   * `parent`: the subagent call (`Task`/`Agent`) this call runs in; unset on the main thread.
   */
  toolUse: (
    ref: TaskRef,
    toolName: string,
    toolUseId: string,
    io?: { readonly input: unknown; readonly truncated: boolean },
    parent?: string,
  ): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.toolUse, TEXT.toolUse(toolName), {
      toolName,
      toolUseId,
      ...(parent !== undefined && { [TOOL_IO_KEYS.parent]: parent }),
      ...(io !== undefined && {
        [TOOL_IO_KEYS.input]: io.input,
        ...(io.truncated && { [TOOL_IO_KEYS.inputTruncated]: true }),
      }),
    }),
  /** The call's output (capped), once the runtime returned it to Claude; `parent` as above. */
  toolResult: (
    ref: TaskRef,
    toolName: string,
    toolUseId: string,
    isError: boolean,
    output: { readonly text: string; readonly bytes: number; readonly truncated: boolean },
    parent?: string,
  ): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.toolResult, TEXT.toolResult(toolName, isError), {
      toolName,
      toolUseId,
      ...(parent !== undefined && { [TOOL_IO_KEYS.parent]: parent }),
      [TOOL_IO_KEYS.isError]: isError,
      [TOOL_IO_KEYS.output]: output.text,
      [TOOL_IO_KEYS.outputBytes]: output.bytes,
      [TOOL_IO_KEYS.truncated]: output.truncated,
    }),
  /** The tool call's result: the sandbox refused it (`sandbox: "refused"`, the operations). */
  sandboxRefused: (
    ref: TaskRef,
    toolName: string,
    toolUseId: string,
    violations: readonly { readonly operation: string; readonly line: string }[],
  ): TaskStatusUpdateEvent =>
    kindStatus(
      ref,
      WORKING,
      KIND.toolUse,
      TEXT.sandboxRefused(
        toolName,
        violations.map((v) => v.line),
      ),
      { toolName, toolUseId, sandbox: "refused", operations: violations.map((v) => v.operation) },
    ),
  result: (ref: TaskRef, text: string): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.result, text),
  /** Back to work with an answer; `operator`: an operator's, whose name the owner is told. */
  resumed: (ref: TaskRef, operator?: string): TaskStatusUpdateEvent =>
    operator === undefined
      ? kindStatus(ref, WORKING, KIND.resumed, TEXT.resumed)
      : kindStatus(ref, WORKING, KIND.resumed, TEXT.resumedByOperator(operator), {
          [ANSWERED_BY_KEY]: operator,
        }),
  /** Behind another task of its conversation, or (`process`) for a Claude Code process. */
  queued: (ref: TaskRef, behind: "context" | "process"): TaskStatusUpdateEvent =>
    kindStatus(
      ref,
      SUBMITTED,
      KIND.queued,
      behind === "context" ? TEXT.queued : TEXT.queuedForProcess,
    ),
  /**
   * Claude took the client's steering message (the control extension): the status message is
   * that message itself, marked, so the task's history holds it where Claude read it.
   * `operator`: an operator steered another caller's task.
   */
  steered: (ref: TaskRef, message: Message, operator?: string): TaskStatusUpdateEvent =>
    statusUpdate(ref, WORKING, {
      ...message,
      taskId: ref.taskId,
      contextId: ref.contextId,
      metadata: {
        ...message.metadata,
        kind: KIND.steered,
        ...(operator !== undefined && { [ANSWERED_BY_KEY]: operator }),
      },
    }),
  /** A rewind (docs/control.md): `extra` says to which task, and what became of the files. */
  rewound: (ref: TaskRef, text: string, extra: Metadata): TaskStatusUpdateEvent =>
    kindStatus(ref, SUBMITTED, KIND.rewound, text, extra),
  /** The first task of a fork: its message references the task it continues from. */
  forked: (ref: TaskRef, text: string, forkOf: string): TaskStatusUpdateEvent => {
    const event = kindStatus(ref, SUBMITTED, KIND.forked, text, { forkOf });
    if (event.status?.message) event.status.message.referenceTaskIds = [forkOf];
    return event;
  },
  sessionReset: (ref: TaskRef, text: string): TaskStatusUpdateEvent =>
    kindStatus(ref, SUBMITTED, KIND.sessionReset, text),
  backgroundWait: (ref: TaskRef, running: readonly WorkRef[]): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.backgroundWait, TEXT.backgroundWait(running), {
      tasks: running,
    }),
  /** `background_task`, or `background_stopped` when the server stopped the work. */
  backgroundFinished: (ref: TaskRef, work: FinishedWork): TaskStatusUpdateEvent => {
    const metadata = { taskId: work.taskId, status: work.status, summary: work.summary ?? "" };
    return work.stopReason === undefined
      ? kindStatus(ref, WORKING, KIND.backgroundTask, TEXT.backgroundFinished(work), metadata)
      : kindStatus(
          ref,
          WORKING,
          KIND.backgroundStopped,
          TEXT.backgroundStopped(work, work.stopReason),
          { ...metadata, reason: work.stopReason },
        );
  },
  backgroundTimeout: (
    ref: TaskRef,
    ms: number,
    running: readonly WorkRef[],
  ): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.backgroundTimeout, TEXT.backgroundTimeout(ms, running)),
  wakeInterrupted: (ref: TaskRef): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.wakeInterrupted, TEXT.wakeInterrupted),
  /**
   * A peer's task this one delegated to changed state (docs/peers.md). Besides its kind on the
   * message (`agent`, `taskId`, `state`), the event's own metadata lists every peer task of this
   * one, on purpose: the SDK merges it into the stored task's, which links the two.
   */
  delegated: (
    ref: TaskRef,
    peer: DelegatedTaskRef,
    state: string,
    what: string,
    linked: readonly DelegatedTaskRef[],
  ): TaskStatusUpdateEvent => {
    const event = kindStatus(
      ref,
      WORKING,
      KIND.delegated,
      DELEGATION_TEXT.progress(peer.agent, state, what),
      { agent: peer.agent, taskId: peer.taskId, state },
    );
    event.metadata = { [DELEGATED_TASKS_KEY]: linked };
    return event;
  },
  /** The prompt a parked task shows: its text, and its data part (which carries the kind). */
  inputRequired: (ref: TaskRef, prompt: InputRequestContent): TaskStatusUpdateEvent =>
    statusUpdate(
      ref,
      TaskState.TASK_STATE_INPUT_REQUIRED,
      agentMessage(
        ref,
        [
          { ...textPart(prompt.text), ...(prompt.mediaType && { mediaType: prompt.mediaType }) },
          dataPart(prompt.data),
        ],
        { kind: prompt.data.kind },
      ),
    ),
  /**
   * One check of a delivery round ran (docs/delivery.md): the text says how it ended, the
   * metadata carries the run itself (command, exit code, duration, output tail).
   */
  delivery: (ref: TaskRef, run: CheckRun): TaskStatusUpdateEvent =>
    kindStatus(ref, WORKING, KIND.delivery, DELIVERY_TEXT.checkRan(run), { ...run }),
  /**
   * A stage of a delivery's target step (push, pull request, merge; docs/delivery.md): same kind
   * as a check's run, told apart by `metadata.step`.
   */
  deliveryStep: (
    ref: TaskRef,
    text: string,
    metadata: Readonly<Record<string, unknown>>,
  ): TaskStatusUpdateEvent => kindStatus(ref, WORKING, KIND.delivery, text, { ...metadata }),
  /** Completed after its turn: its caller's spend reached the daily budget (`text` says so). */
  budgetReached: (ref: TaskRef, text: string): TaskStatusUpdateEvent =>
    kindStatus(ref, TaskState.TASK_STATE_COMPLETED, KIND.budgetReached, text),
  completed: (ref: TaskRef, note?: string): TaskStatusUpdateEvent =>
    note === undefined
      ? statusUpdate(ref, TaskState.TASK_STATE_COMPLETED)
      : plainStatus(ref, TaskState.TASK_STATE_COMPLETED, note),
  failed: (ref: TaskRef, reason: string): TaskStatusUpdateEvent =>
    plainStatus(ref, TaskState.TASK_STATE_FAILED, reason),
  /** `operator`: an operator canceled another caller's task; its name is on the message. */
  canceled: (ref: TaskRef, operator?: string): TaskStatusUpdateEvent =>
    operator === undefined
      ? plainStatus(ref, TaskState.TASK_STATE_CANCELED, TEXT.canceled)
      : statusUpdate(
          ref,
          TaskState.TASK_STATE_CANCELED,
          agentMessage(ref, [textPart(TEXT.canceledByOperator(operator))], {
            [CANCELED_BY_KEY]: operator,
          }),
        ),
} as const;
