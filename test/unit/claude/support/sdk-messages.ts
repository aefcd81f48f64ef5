/**
 * Builders for the SDK frames the runtime sends, shaped as in notes/claude-agent-sdk.md. Only the
 * fields the provider reads are filled; the rest of each SDK type is irrelevant here.
 */
import type { HistoryMessage } from "../../../../src/claude/timeline.js";

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

export const SESSION_ID = "11111111-1111-4111-8111-111111111111";

interface FrameOpts {
  /** user_message_uuid: the send this frame answers. */
  stamp?: string;
  parent?: string | null;
  agentId?: string;
}

const stampFields = (o: FrameOpts) =>
  o.stamp === undefined ? {} : { user_message_uuid: o.stamp, user_message_uuids: [o.stamp] };

export const sdk = {
  init: (sessionId = SESSION_ID) => ({
    type: "system",
    subtype: "init",
    session_id: sessionId,
    uuid: uuid(),
    model: "claude-sonnet-4-5",
    cwd: "/work",
    tools: [],
  }),

  assistant: (
    messageId: string,
    content: unknown[],
    o: FrameOpts & { aborted?: boolean } = {},
  ) => ({
    type: "assistant",
    message: { id: messageId, role: "assistant", content, stop_reason: null },
    parent_tool_use_id: o.parent ?? null,
    session_id: SESSION_ID,
    uuid: uuid(),
    ...(o.aborted === true ? { aborted: true } : {}),
    ...(o.agentId === undefined ? {} : { agent_id: o.agentId }),
    ...stampFields(o),
  }),

  text: (messageId: string, text: string, o: FrameOpts & { aborted?: boolean } = {}) =>
    sdk.assistant(messageId, [{ type: "text", text }], o),

  toolUse: (
    messageId: string,
    toolUseId: string,
    name: string,
    input: unknown,
    o: FrameOpts = {},
  ) => sdk.assistant(messageId, [{ type: "tool_use", id: toolUseId, name, input }], o),

  /**
   * The message the runtime makes up when a model API call fails (model `<synthetic>`): its text
   * is the runtime's, `error` its `SDKAssistantMessageError`, as recorded from Claude Code 2.1.
   */
  apiError: (
    messageId: string,
    text: string,
    o: FrameOpts & { error: string; status?: number | null },
  ) => ({
    ...sdk.assistant(messageId, [{ type: "text", text }], o),
    error: o.error,
    is_api_error_message: true,
    ...(o.status === undefined ? {} : { api_error_status: o.status }),
  }),

  stream: (event: unknown, o: FrameOpts = {}) => ({
    type: "stream_event",
    event,
    parent_tool_use_id: o.parent ?? null,
    session_id: SESSION_ID,
    uuid: uuid(),
    ...stampFields(o),
  }),

  messageStart: (messageId: string, o: FrameOpts = {}) =>
    sdk.stream({ type: "message_start", message: { id: messageId, content: [] } }, o),
  blockStart: (index: number, block: unknown, o: FrameOpts = {}) =>
    sdk.stream({ type: "content_block_start", index, content_block: block }, o),
  textDelta: (index: number, text: string, o: FrameOpts = {}) =>
    sdk.stream({ type: "content_block_delta", index, delta: { type: "text_delta", text } }, o),
  blockStop: (index: number, o: FrameOpts = {}) =>
    sdk.stream({ type: "content_block_stop", index }, o),
  messageDelta: (o: FrameOpts = {}) =>
    sdk.stream({ type: "message_delta", delta: { stop_reason: "end_turn" } }, o),
  messageStop: (o: FrameOpts = {}) => sdk.stream({ type: "message_stop" }, o),
  ping: () => sdk.stream({ type: "ping" }),

  toolResult: (toolUseId: string, text: string, o: FrameOpts = {}) => ({
    type: "user",
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: toolUseId, content: text }],
    },
    parent_tool_use_id: o.parent ?? null,
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  interruptedMarker: () => ({
    type: "user",
    message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
    parent_tool_use_id: null,
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  result: (
    o: {
      text?: string;
      stamp?: string;
      subtype?: string;
      isError?: boolean;
      errors?: string[];
      terminalReason?: string;
      origin?: string;
      apiErrorStatus?: number | null;
      /** The runtime's running totals: `total_cost_usd` and one model's `modelUsage`. */
      totals?: { costUsd: number; input: number; output: number; model?: string };
    } = {},
  ) => ({
    type: "result",
    subtype: o.subtype ?? "success",
    is_error: o.isError ?? false,
    result: o.text ?? "",
    errors: o.errors ?? [],
    terminal_reason: o.terminalReason ?? "completed",
    num_turns: 1,
    total_cost_usd: 0,
    duration_ms: 1,
    session_id: SESSION_ID,
    uuid: uuid(),
    ...(o.origin === undefined ? {} : { origin: { kind: o.origin } }),
    ...(o.apiErrorStatus === undefined ? {} : { api_error_status: o.apiErrorStatus }),
    ...(o.totals && {
      total_cost_usd: o.totals.costUsd,
      modelUsage: {
        [o.totals.model ?? "claude-sonnet-4-5"]: {
          inputTokens: o.totals.input,
          outputTokens: o.totals.output,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
          costUSD: o.totals.costUsd,
        },
      },
    }),
    ...stampFields(o),
  }),

  /** The result of an autonomous turn: no send stamp, origin task-notification. */
  autonomousResult: (text: string) => sdk.result({ text, origin: "task-notification" }),

  abortedResult: (o: { stamp?: string } = {}) =>
    sdk.result({
      subtype: "error_during_execution",
      isError: true,
      terminalReason: "aborted_streaming",
      ...o,
    }),

  taskStarted: (taskId: string, toolUseId: string) => ({
    type: "system",
    subtype: "task_started",
    task_id: taskId,
    tool_use_id: toolUseId,
    description: "sleep 1",
    task_type: "local_bash",
    is_backgrounded: true,
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  taskUpdated: (taskId: string, status: string) => ({
    type: "system",
    subtype: "task_updated",
    task_id: taskId,
    patch: { status },
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  taskNotification: (taskId: string, toolUseId: string, status = "completed") => ({
    type: "system",
    subtype: "task_notification",
    task_id: taskId,
    tool_use_id: toolUseId,
    status,
    summary: `task ${taskId} ${status}`,
    output_file: `/tmp/${taskId}.out`,
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  tasksChanged: (taskIds: string[]) => ({
    type: "system",
    subtype: "background_tasks_changed",
    tasks: taskIds.map((id) => ({ task_id: id, task_type: "local_bash", description: id })),
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  sessionState: (state: "idle" | "running") => ({
    type: "system",
    subtype: "session_state_changed",
    state,
    session_id: SESSION_ID,
    uuid: uuid(),
  }),

  unknown: (type = "command_lifecycle") => ({ type, something: { nested: true }, uuid: uuid() }),
};

/** A streamed message's opening: its message_start, then an empty text block at index 0. */
export function openText(messageId: string, o: FrameOpts = {}): unknown[] {
  return [sdk.messageStart(messageId, o), sdk.blockStart(0, { type: "text", text: "" })];
}

/** A text block streamed whole: the message's opening, these deltas, the block's stop. */
export function streamedText(messageId: string, deltas: string[], o: FrameOpts = {}): unknown[] {
  return [...openText(messageId, o), ...deltas.map((d) => sdk.textDelta(0, d)), sdk.blockStop(0)];
}

/** A complete foreground reply to the send `stamp`, as the runtime streams it. */
export function reply(stamp: string, messageId: string, text: string): unknown[] {
  return [
    sdk.init(),
    ...streamedText(messageId, [text], { stamp }),
    sdk.text(messageId, text, { stamp }),
    sdk.messageDelta(),
    sdk.messageStop(),
    sdk.result({ text, stamp }),
  ];
}

/** An autonomous wake: the notification bookkeeping, then a turn no send asked for. */
export function autonomousTurn(messageId: string, text: string): unknown[] {
  return [
    sdk.init(),
    ...streamedText(messageId, [text]),
    sdk.text(messageId, text),
    sdk.messageStop(),
    sdk.autonomousResult(text),
  ];
}

/** What tests vary in a turn that starts a background job. */
export interface BackgroundJobTurn {
  /** The job's task id (default `t1`); its tool use is always `tu-bg`. */
  taskId?: string;
  command?: string;
  /** The turn's closing words (default "Started."). */
  text?: string;
  /** Whether the runtime lists the job in `background_tasks_changed` first (default yes). */
  listed?: boolean;
  /** Whether the closing text carries the send's stamp, as the result does (default no). */
  stampedText?: boolean;
  /** The result's running totals (`sdk.result`'s `totals`). */
  totals?: { costUsd: number; input: number; output: number; model?: string };
  /** `total_cost_usd` alone, without model usage. */
  costUsd?: number;
}

/** A foreground turn answering the send `stamp` that starts background Bash and ends. */
export function startsBackgroundJob(stamp: string, o: BackgroundJobTurn = {}): unknown[] {
  const taskId = o.taskId ?? "t1";
  const text = o.text ?? "Started.";
  const result = sdk.result({ text, stamp, totals: o.totals });
  return [
    sdk.init(),
    sdk.toolUse(
      "m1",
      "tu-bg",
      "Bash",
      { command: o.command ?? "sleep 9", run_in_background: true },
      { stamp },
    ),
    ...(o.listed === false ? [] : [sdk.tasksChanged([taskId])]),
    sdk.taskStarted(taskId, "tu-bg"),
    sdk.toolResult("tu-bg", `Command running in background with ID: ${taskId}`),
    sdk.text("m2", text, o.stampedText === true ? { stamp } : {}),
    o.costUsd === undefined ? result : { ...result, total_cost_usd: o.costUsd },
  ];
}

/** Background job `taskId` (tool use `tu-bg`) completes: its update, its notification, none left. */
export const backgroundJobFinished = (taskId = "t1"): unknown[] => [
  sdk.taskUpdated(taskId, "completed"),
  sdk.taskNotification(taskId, "tu-bg"),
  sdk.tasksChanged([]),
];

/** What the runtime streams when an interrupt cuts message `messageId` after `text`. */
export const interruptedMessage = (
  messageId: string,
  text: string,
  o: { stamp?: string } = {},
): unknown[] => [
  sdk.text(messageId, text, { aborted: true }),
  sdk.interruptedMarker(),
  sdk.messageStop(),
  sdk.abortedResult(o),
];

/** A resumed session's transcript, as the history loader reads it: a question, then its answer. */
export const historyExchange = (
  question: { uuid: string; text: string },
  answer: { uuid: string; messageId: string; text: string },
): HistoryMessage[] => [
  {
    type: "user",
    uuid: question.uuid,
    message: { role: "user", content: question.text },
    parent_tool_use_id: null,
  },
  {
    type: "assistant",
    uuid: answer.uuid,
    message: { id: answer.messageId, content: [{ type: "text", text: answer.text }] },
    parent_tool_use_id: null,
  },
];
