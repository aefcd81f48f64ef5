import { randomUUID } from "node:crypto";
import {
  Role,
  TaskState,
  type Artifact,
  type Message,
  type Part,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";

/**
 * `metadata.kind` of every status message and artifact update this server publishes. The first
 * five are the README's contract; the rest are additions, each with its own kind.
 */
export const KIND = {
  toolUse: "tool_use",
  result: "result",
  askUserQuestion: "ask_user_question",
  permissionRequest: "permission_request",
  resumed: "resumed",
  queued: "queued",
  assistantText: "assistant_text",
  file: "file",
  serverRestarted: "server_restarted",
  sessionReset: "session_reset",
  backgroundWait: "background_wait",
  backgroundTask: "background_task",
  backgroundStopped: "background_stopped",
  backgroundTimeout: "background_timeout",
  wakeInterrupted: "wake_interrupted",
} as const;
export type EventKind = (typeof KIND)[keyof typeof KIND];

export type Metadata = Record<string, unknown>;

export function textPart(text: string, metadata?: Metadata): Part {
  return {
    content: { $case: "text", value: text },
    mediaType: "text/plain",
    filename: "",
    metadata,
  };
}

export function dataPart(data: unknown): Part {
  return {
    content: { $case: "data", value: data },
    mediaType: "application/json",
    filename: "",
    metadata: undefined,
  };
}

export function rawPart(bytes: Buffer, mediaType: string, filename: string): Part {
  return { content: { $case: "raw", value: bytes }, mediaType, filename, metadata: undefined };
}

export interface TaskRef {
  readonly taskId: string;
  readonly contextId: string;
}

export function agentMessage(ref: TaskRef, parts: Part[], metadata?: Metadata): Message {
  return {
    messageId: randomUUID(),
    contextId: ref.contextId,
    taskId: ref.taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function statusUpdate(
  ref: TaskRef,
  state: TaskState,
  message?: Message,
  metadata?: Metadata,
): TaskStatusUpdateEvent {
  return {
    taskId: ref.taskId,
    contextId: ref.contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    metadata,
  };
}

/** A status update whose message is one text part tagged with `kind` (and extra metadata). */
export function kindStatus(
  ref: TaskRef,
  state: TaskState,
  kind: EventKind,
  text: string,
  extra: Metadata = {},
): TaskStatusUpdateEvent {
  return statusUpdate(ref, state, agentMessage(ref, [textPart(text)], { kind, ...extra }));
}

/** An unmarked status message (failed, canceled): clients treat it as plain text. */
export function plainStatus(ref: TaskRef, state: TaskState, text: string): TaskStatusUpdateEvent {
  return statusUpdate(ref, state, agentMessage(ref, [textPart(text)]));
}

export const RESUMED_TEXT = "Resumed with the client's answer.";

/**
 * A resumed task's first status: WORKING, tagged `resumed`. The kind is on the message only:
 * the SDK merges a status event's own metadata into the stored task's, where it would outlive
 * the turn.
 */
export function resumedStatus(ref: TaskRef): TaskStatusUpdateEvent {
  return kindStatus(ref, TaskState.TASK_STATE_WORKING, KIND.resumed, RESUMED_TEXT);
}

/** A new task in `submitted`, its history starting with `first` (the message that made it). */
export function newTask(ref: TaskRef, first: Message): Task {
  return {
    id: ref.taskId,
    contextId: ref.contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    artifacts: [],
    history: [first],
    metadata: {},
  };
}

export function artifactUpdate(
  ref: TaskRef,
  artifact: Artifact,
  chunk: { append: boolean; lastChunk: boolean },
  metadata?: Metadata,
): TaskArtifactUpdateEvent {
  return {
    taskId: ref.taskId,
    contextId: ref.contextId,
    artifact,
    append: chunk.append,
    lastChunk: chunk.lastChunk,
    metadata,
  };
}

export function artifact(
  artifactId: string,
  name: string,
  parts: Part[],
  metadata: Metadata,
  description = "",
): Artifact {
  return { artifactId, name, description, parts, metadata, extensions: [] };
}

const now = () => new Date().toISOString();
