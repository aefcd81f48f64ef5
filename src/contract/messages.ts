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

/** The same status update, stamped now: it was held, and goes out later than it was made. */
export function restamped(event: TaskStatusUpdateEvent): TaskStatusUpdateEvent {
  const status = event.status && { ...event.status, timestamp: new Date().toISOString() };
  return { ...event, status };
}

/** A new task in `submitted`, its history starting with `first` (the message that made it). */
export function newTask(ref: TaskRef, first: Message, metadata: Metadata = {}): Task {
  return {
    id: ref.taskId,
    contextId: ref.contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    artifacts: [],
    history: [first],
    metadata,
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
