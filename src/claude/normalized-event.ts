import type { SandboxViolation } from "./sandbox-violations.js";
import type { RunUsage } from "./usage.js";

/** Content blocks reduced to what the provider and the layers above read. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; toolUseId: string; isError: boolean; text: string }
  | { type: "other"; blockType: string };

export type BlockDelta =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "input_json"; partialJson: string }
  | { type: "other"; deltaType: string };

export type StreamPart =
  | { type: "message_start"; messageId: string }
  | { type: "content_block_start"; index: number; block: ContentBlock }
  | { type: "content_block_delta"; index: number; delta: BlockDelta }
  | { type: "content_block_stop"; index: number }
  | { type: "message_delta"; stopReason: string | null }
  | { type: "message_stop" }
  | { type: "ping" }
  | { type: "other"; eventType: string };

export interface EventBase {
  uuid?: string;
  sessionId?: string;
}

export interface InitEvent extends EventBase {
  kind: "init";
  model?: string;
  cwd?: string;
}

/**
 * A failure the runtime reports in a structured way and the layers above explain in their own
 * words, because the runtime's text speaks to someone at its terminal:
 * - `authentication_failed`: no usable login or API key ("Not logged in · Please run /login",
 *   "Invalid API key · …");
 * - `prompt_rejected`: the model API refused the request as invalid (HTTP 400,
 *   `invalid_request`), which re-sending the same conversation would repeat forever.
 */
export type FailureCause = "authentication_failed" | "prompt_rejected";

export interface AssistantEvent extends EventBase {
  kind: "assistant";
  messageId: string;
  parentToolUseId: string | null;
  /** Set on subagent frames: the task_id of the subagent's task events. */
  agentId?: string;
  content: ContentBlock[];
  aborted: boolean;
  /** The sends this frame answers, as stamped by the runtime (empty when unstamped). */
  userMessageUuids: string[];
  /** The runtime's error kind on a message it made up for a failed API call (its own text). */
  error?: string;
  /** Set when `error` (or the HTTP status of the failed call) is a failure we recognize. */
  cause?: FailureCause;
}

export interface StreamEvent extends EventBase {
  kind: "stream";
  /** Partial frames of the main thread and of each subagent interleave; each has its own key. */
  streamKey: string;
  /** Only message_start carries the id; undefined when a frame arrives before its message_start. */
  messageId: string | undefined;
  parentToolUseId: string | null;
  userMessageUuids: string[];
  part: StreamPart;
}

export interface UserEvent extends EventBase {
  kind: "user";
  parentToolUseId: string | null;
  agentId?: string;
  isReplay: boolean;
  isSynthetic: boolean;
  text: string;
  /** `sandbox`: the runtime marked the command refused by its sandbox (`sandbox-violations.ts`). */
  toolResults: { toolUseId: string; isError: boolean; sandbox?: SandboxViolation[] }[];
  /** The runtime's "[Request interrupted by user]" marker after an interrupt. */
  interruptMarker: boolean;
}

export interface ResultEvent extends EventBase {
  kind: "result";
  subtype: string;
  success: boolean;
  text?: string;
  errors: string[];
  terminalReason?: string;
  /** HTTP status of the model API call the turn ended on, when it ended on one. */
  apiErrorStatus?: number;
  userMessageUuids: string[];
  originKind?: string;
  /** What this run cost: its share of the runtime's running totals (`usage.ts`). */
  usage: RunUsage;
}

export interface TaskStartedEvent extends EventBase {
  kind: "task_started";
  taskId: string;
  toolUseId?: string;
  description: string;
  taskType?: string;
  isBackgrounded?: boolean;
}

export interface TaskUpdatedEvent extends EventBase {
  kind: "task_updated";
  taskId: string;
  status?: string;
}

export interface TaskProgressEvent extends EventBase {
  kind: "task_progress";
  taskId: string;
  toolUseId?: string;
  description: string;
  summary?: string;
}

export interface TaskNotificationEvent extends EventBase {
  kind: "task_notification";
  taskId: string;
  toolUseId?: string;
  status: string;
  summary: string;
  outputFile?: string;
}

export interface BackgroundTaskInfo {
  taskId: string;
  taskType: string;
  description: string;
  ambient: boolean;
}

export interface BackgroundTasksChangedEvent extends EventBase {
  kind: "background_tasks_changed";
  tasks: BackgroundTaskInfo[];
}

export interface SessionStateChangedEvent extends EventBase {
  kind: "session_state_changed";
  state: string;
}

export interface ApiRetryEvent extends EventBase {
  kind: "api_retry";
  attempt: number;
  maxRetries: number;
  retryDelayMs: number;
  errorStatus: number | null;
  error: string;
}

/** Everything else, unknown types included: kept, never routed, never a crash. */
export interface MetadataEvent extends EventBase {
  kind: "metadata";
  type: string;
  subtype?: string;
  raw: unknown;
}

export type NormalizedEvent =
  | InitEvent
  | AssistantEvent
  | StreamEvent
  | UserEvent
  | ResultEvent
  | TaskStartedEvent
  | TaskUpdatedEvent
  | TaskProgressEvent
  | TaskNotificationEvent
  | BackgroundTasksChangedEvent
  | SessionStateChangedEvent
  | ApiRetryEvent
  | MetadataEvent;
