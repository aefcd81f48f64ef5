/**
 * Why it is over 300 lines: one exhaustive mapping of every SDK message type to our events; split,
 * the cases would lose the one switch that shows nothing is left unhandled.
 */
import { violationIds, violationsOf, type SandboxViolation } from "./sandbox-violations.js";
import { contentBlocks, streamPart, textOf } from "./content.js";
import type {
  AssistantEvent,
  EventBase,
  FailureCause,
  InitEvent,
  MetadataEvent,
  NormalizedEvent,
  ResultEvent,
  StreamEvent,
  TaskNotificationEvent,
  TaskProgressEvent,
  TaskStartedEvent,
  TaskUpdatedEvent,
  UserEvent,
} from "./normalized-event.js";
import { isRec, num, str, type Rec } from "./json.js";
import { resultUsageReport, UsageMeter } from "./usage.js";

export type * from "./normalized-event.js";
export { contentBlocks, textOf } from "./content.js";

const INTERRUPT_MARKER = "[Request interrupted by user";

/**
 * The cause of a failed API call, from the runtime's structured signals: the `error` kind of its
 * synthetic assistant message (`SDKAssistantMessageError`) or the call's HTTP status. With no
 * credentials at all the runtime makes no call (status absent) and says `authentication_failed`.
 */
export function failureCause(
  error: string | undefined,
  httpStatus: number | undefined,
): FailureCause | undefined {
  if (error === "authentication_failed" || httpStatus === 401) return "authentication_failed";
  if (error === "invalid_request" || httpStatus === 400) return "prompt_rejected";
  return undefined;
}

/**
 * SDKMessage → NormalizedEvent. Stateful for two reasons: partial stream frames carry the API
 * message id on message_start alone, so the current id is remembered per stream key; and a
 * result's cost figures are running totals of the process, so a run's share is metered against
 * the previous result (`usage.ts`).
 */
export class Normalizer {
  private readonly currentMessage = new Map<string, string>();

  constructor(
    private readonly meter: UsageMeter = new UsageMeter(),
    /**
     * Tool calls the server's own guard refused (`src/sandbox/file-guard.ts`), by tool use id:
     * their results are refusals like the sandbox's, each taken once.
     */
    private readonly refusals: Map<string, readonly SandboxViolation[]> = new Map(),
  ) {}

  /** Takes `unknown` on purpose: the runtime sends types the installed .d.ts does not know. */
  normalize(message: unknown): NormalizedEvent {
    if (!isRec(message)) return { kind: "metadata", type: typeof message, raw: message };
    try {
      return this.normalizeRecord(message);
    } catch {
      // A malformed frame of a known type must not stop the pump.
      return metadata(message);
    }
  }

  private normalizeRecord(m: Rec): NormalizedEvent {
    switch (m.type) {
      case "assistant":
        return normalizeAssistant(m);
      case "user":
        return normalizeUser(m, this.refusals);
      case "result":
        return normalizeResult(m, this.meter);
      case "stream_event":
        return this.normalizeStream(m);
      case "system":
        return normalizeSystem(m);
      default:
        return metadata(m);
    }
  }

  private normalizeStream(m: Rec): NormalizedEvent {
    const parentToolUseId = str(m.parent_tool_use_id) ?? null;
    const streamKey = parentToolUseId ?? "main";
    const part = streamPart(m.event);
    if (part.type === "message_start") this.currentMessage.set(streamKey, part.messageId);
    const messageId = this.currentMessage.get(streamKey);
    if (part.type === "message_stop") this.currentMessage.delete(streamKey);
    // No spread of base(): this runs once per delta.
    const ev: StreamEvent = {
      kind: "stream",
      streamKey,
      messageId,
      parentToolUseId,
      userMessageUuids: stamps(m),
      part,
    };
    return withBase(ev, m);
  }
}

function base(m: Rec): EventBase {
  return withBase({}, m);
}

/** `out` with the frame's uuid and session id set, where it has them. */
function withBase<T extends EventBase>(out: T, m: Rec): T {
  const uuid = str(m.uuid);
  const sessionId = str(m.session_id);
  if (uuid !== undefined) out.uuid = uuid;
  if (sessionId !== undefined) out.sessionId = sessionId;
  return out;
}

function metadata(m: Rec): MetadataEvent {
  const ev: MetadataEvent = {
    kind: "metadata",
    ...base(m),
    type: str(m.type) ?? "unknown",
    raw: m,
  };
  const subtype = str(m.subtype);
  if (subtype !== undefined) ev.subtype = subtype;
  return ev;
}

/** The runtime names the sends a frame answers in two fields; older producers only in the first. */
function stamps(m: Rec): string[] {
  const one = str(m.user_message_uuid);
  const many = m.user_message_uuids;
  if (!Array.isArray(many)) return one === undefined ? [] : [one];
  // The usual frame names one send in both fields: no Set for that.
  if (many.length === 1 && (many[0] === one || one === undefined) && typeof many[0] === "string") {
    return [many[0]];
  }
  const out = new Set<string>();
  if (one !== undefined) out.add(one);
  for (const u of many) if (typeof u === "string") out.add(u);
  return [...out];
}

function normalizeAssistant(m: Rec): NormalizedEvent {
  const message = isRec(m.message) ? m.message : {};
  const messageId = str(message.id);
  if (messageId === undefined) return metadata(m);
  const ev: AssistantEvent = {
    kind: "assistant",
    ...base(m),
    messageId,
    parentToolUseId: str(m.parent_tool_use_id) ?? null,
    content: contentBlocks(message.content),
    aborted: m.aborted === true,
    userMessageUuids: stamps(m),
  };
  const agentId = str(m.agent_id);
  if (agentId !== undefined) ev.agentId = agentId;
  const error = str(m.error);
  if (error !== undefined) ev.error = error;
  const cause = failureCause(error, num(m.api_error_status));
  if (cause !== undefined) ev.cause = cause;
  return ev;
}

function normalizeUser(m: Rec, guarded: Map<string, readonly SandboxViolation[]>): NormalizedEvent {
  const message = isRec(m.message) ? m.message : {};
  const blocks = contentBlocks(message.content);
  const text = textOf(blocks);
  const refused = violationIds(m.tool_result_meta);
  const ev: UserEvent = {
    kind: "user",
    ...base(m),
    parentToolUseId: str(m.parent_tool_use_id) ?? null,
    isReplay: m.isReplay === true,
    isSynthetic: m.isSynthetic === true,
    text,
    toolResults: blocks.flatMap((b) => {
      if (b.type !== "tool_result") return [];
      const result = { toolUseId: b.toolUseId, isError: b.isError, text: b.text };
      if (refused.has(b.toolUseId)) return [{ ...result, sandbox: violationsOf(b.text) }];
      const byServer = guarded.get(b.toolUseId);
      if (byServer === undefined) return [result];
      guarded.delete(b.toolUseId);
      return [{ ...result, sandbox: [...byServer] }];
    }),
    interruptMarker: text.startsWith(INTERRUPT_MARKER),
  };
  const agentId = str(m.agent_id);
  if (agentId !== undefined) ev.agentId = agentId;
  return ev;
}

function normalizeResult(m: Rec, meter: UsageMeter): NormalizedEvent {
  const subtype = str(m.subtype) ?? "unknown";
  const isError = m.is_error === true;
  const ev: ResultEvent = {
    kind: "result",
    ...base(m),
    subtype,
    success: subtype === "success" && !isError,
    errors: Array.isArray(m.errors) ? m.errors.filter((e) => typeof e === "string") : [],
    userMessageUuids: stamps(m),
    usage: meter.take(resultUsageReport(m)),
  };
  const text = str(m.result);
  if (text !== undefined) ev.text = text;
  const terminalReason = str(m.terminal_reason);
  if (terminalReason !== undefined) ev.terminalReason = terminalReason;
  const apiErrorStatus = num(m.api_error_status);
  if (apiErrorStatus !== undefined) ev.apiErrorStatus = apiErrorStatus;
  if (isRec(m.origin)) {
    const originKind = str(m.origin.kind);
    if (originKind !== undefined) ev.originKind = originKind;
  }
  return ev;
}

function normalizeSystem(m: Rec): NormalizedEvent {
  const b = base(m);
  const taskId = str(m.task_id);
  const toolUseId = str(m.tool_use_id);
  const withTool = <T extends object>(ev: T): T & { toolUseId?: string } =>
    toolUseId === undefined ? ev : { ...ev, toolUseId };
  switch (m.subtype) {
    case "init": {
      const ev: InitEvent = { kind: "init", ...b };
      const model = str(m.model);
      const cwd = str(m.cwd);
      if (model !== undefined) ev.model = model;
      if (cwd !== undefined) ev.cwd = cwd;
      return ev;
    }
    case "task_started": {
      if (taskId === undefined) return metadata(m);
      const ev: TaskStartedEvent = withTool({
        kind: "task_started" as const,
        ...b,
        taskId,
        description: str(m.description) ?? "",
      });
      const taskType = str(m.task_type);
      if (taskType !== undefined) ev.taskType = taskType;
      if (typeof m.is_backgrounded === "boolean") ev.isBackgrounded = m.is_backgrounded;
      return ev;
    }
    case "task_updated": {
      if (taskId === undefined) return metadata(m);
      const ev: TaskUpdatedEvent = { kind: "task_updated", ...b, taskId };
      const status = isRec(m.patch) ? str(m.patch.status) : undefined;
      if (status !== undefined) ev.status = status;
      return ev;
    }
    case "task_progress": {
      if (taskId === undefined) return metadata(m);
      const ev: TaskProgressEvent = withTool({
        kind: "task_progress" as const,
        ...b,
        taskId,
        description: str(m.description) ?? "",
      });
      const summary = str(m.summary);
      if (summary !== undefined) ev.summary = summary;
      return ev;
    }
    case "task_notification": {
      if (taskId === undefined) return metadata(m);
      const ev: TaskNotificationEvent = withTool({
        kind: "task_notification" as const,
        ...b,
        taskId,
        status: str(m.status) ?? "unknown",
        summary: str(m.summary) ?? "",
      });
      const outputFile = str(m.output_file);
      if (outputFile !== undefined) ev.outputFile = outputFile;
      return ev;
    }
    case "background_tasks_changed":
      return {
        kind: "background_tasks_changed",
        ...b,
        tasks: (Array.isArray(m.tasks) ? m.tasks : []).filter(isRec).flatMap((t) => {
          const id = str(t.task_id);
          return id === undefined
            ? []
            : [
                {
                  taskId: id,
                  taskType: str(t.task_type) ?? "unknown",
                  description: str(t.description) ?? "",
                  ambient: t.ambient === true,
                },
              ];
        }),
      };
    case "session_state_changed":
      return { kind: "session_state_changed", ...b, state: str(m.state) ?? "unknown" };
    case "api_retry":
      return {
        kind: "api_retry",
        ...b,
        attempt: num(m.attempt) ?? 0,
        maxRetries: num(m.max_retries) ?? 0,
        retryDelayMs: num(m.retry_delay_ms) ?? 0,
        errorStatus: num(m.error_status) ?? null,
        error: str(m.error) ?? "unknown",
      };
    default:
      return metadata(m);
  }
}
