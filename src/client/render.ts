/**
 * Turns A2A stream events into terminal output, per docs/protocol.md's event contract
 * (`metadata.kind`), and degrades to plain text for any other agent. Pure: the caller writes.
 */
import {
  TaskState,
  type Artifact,
  type Message,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import { delegatedAgentsOf } from "../contract/delegation.js";
import { usageOf, type TaskUsage } from "../contract/usage.js";
import type { Colors } from "./colors.js";
import { inputRequestOf, type InputRequest } from "./interaction.js";
import { partsText } from "./message-parts.js";
import { isParkedState, isTerminalState } from "../contract/task-states.js";
import { KIND } from "../contract/kinds.js";
import { TEXT } from "../contract/texts.js";
import { TOOL_IO_KEYS } from "../contract/tool-io.js";
import { outputLine } from "./tool-summary.js";

export interface Output {
  readonly to: "out" | "err";
  readonly text: string;
}

/** What one turn's stream has shown so far. */
export interface TurnView {
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  /** The turn ended on a message (an agent that answers without a task). */
  answeredByMessage: boolean;
  /** Text printed per artifact id, to print only what is new. */
  readonly printed: Map<string, string>;
  /** Some answer text was streamed (then the `result` status is not printed again). */
  streamedText: boolean;
  atLineStart: boolean;
  input?: InputRequest;
  /** The status text of a failed, canceled or rejected task. */
  reason?: string;
  /** What the task cost, from its final status (`metadata.usage`); absent from other agents. */
  usage?: TaskUsage;
  /** The peers it delegated to, by name (`metadata.delegatedTasks`), for its cost line. */
  delegatedTo?: readonly string[];
}

export const newView = (): TurnView => ({
  answeredByMessage: false,
  printed: new Map(),
  streamedText: false,
  atLineStart: true,
});

const STATE_NAMES: Record<number, string> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
};

export const stateName = (state: TaskState | undefined): string =>
  state === undefined ? "unknown" : (STATE_NAMES[state] ?? "unknown");

/** `completed`, `input-required`… → the enum; undefined when unknown. */
export function parseState(name: string): TaskState | undefined {
  const wanted = name
    .trim()
    .toLowerCase()
    .replace(/^task_state_/, "")
    .replace(/_/g, "-");
  const found = Object.entries(STATE_NAMES).find(([, n]) => n === wanted);
  return found ? Number(found[0]) : undefined;
}

/** Text that continues the current line. */
export function chunk(view: TurnView, text: string): Output[] {
  if (text === "") return [];
  view.atLineStart = text.endsWith("\n");
  return [{ to: "out", text }];
}

/** A whole line, started on a fresh line. */
export function line(view: TurnView, text: string, to: "out" | "err" = "out"): Output[] {
  const out: Output[] = [];
  if (!view.atLineStart && to === "out") out.push({ to: "out", text: "\n" });
  view.atLineStart = true;
  out.push({ to, text: `${text}\n` });
  return out;
}

/** The peers named in an event's or task's metadata join those the view knows. */
function notePeers(view: TurnView, metadata: Record<string, unknown> | undefined): void {
  const agents = delegatedAgentsOf(metadata);
  if (agents.length > 0) view.delegatedTo = [...new Set([...(view.delegatedTo ?? []), ...agents])];
}

const metaKind = (m: Record<string, unknown> | undefined): string | undefined =>
  typeof m?.kind === "string" ? m.kind : undefined;

function renderArtifact(view: TurnView, a: Artifact, append: boolean, c: Colors): Output[] {
  const kind = metaKind(a.metadata);
  if (kind === KIND.file) {
    const meta = a.metadata ?? {};
    const path =
      (typeof meta.path === "string" && meta.path) ||
      a.parts.find((p) => p.filename)?.filename ||
      a.name ||
      a.artifactId;
    return line(view, c.green(`wrote ${path}`));
  }
  if (kind === KIND.diff) {
    // The diff itself is for tools (git apply, a review UI); the terminal says where it went.
    const meta = a.metadata ?? {};
    const commit = typeof meta.commit === "string" ? meta.commit.slice(0, 12) : "";
    const branch = typeof meta.branch === "string" ? meta.branch : "";
    return line(view, c.green(`committed ${commit} on ${branch}`));
  }
  if (kind === KIND.proofOfWork) {
    // The Markdown part; the JSON beside it is for tools (`claude-a2a task <id> --json`).
    const markdown = partsText(a.parts).trimEnd();
    const out: Output[] = view.atLineStart ? [] : [{ to: "out", text: "\n" }];
    view.atLineStart = true;
    return [...out, ...line(view, markdown)];
  }
  const text = partsText(a.parts);
  const out: Output[] = [];
  if (text !== "") {
    const before = view.printed.get(a.artifactId) ?? "";
    let fresh: string;
    if (append) fresh = text;
    else if (text.startsWith(before)) fresh = text.slice(before.length);
    else {
      // A replacement that does not continue what was shown: start it on its own line.
      if (!view.atLineStart) {
        out.push({ to: "out", text: "\n" });
        view.atLineStart = true;
      }
      fresh = text;
    }
    view.printed.set(a.artifactId, append ? before + text : text);
    if (fresh !== "") view.streamedText = true;
    out.push(...chunk(view, fresh));
  }
  for (const p of a.parts) {
    if (p.content?.$case === "raw" || p.content?.$case === "url") {
      const size = p.content.$case === "raw" ? `, ${p.content.value.length} bytes` : "";
      const where = p.content.$case === "url" ? ` ${p.content.value}` : "";
      out.push(
        ...line(
          view,
          c.green(
            `file ${p.filename || a.name || a.artifactId}${where} (${p.mediaType || "unknown type"}${size})`,
          ),
        ),
      );
    }
  }
  return out;
}

/** "3 lines", "failed: not found": a `tool_result` status (under its `tool_use` line). */
function toolResultLine(m: Record<string, unknown> | undefined): string {
  const output = m?.[TOOL_IO_KEYS.output];
  return outputLine(typeof output === "string" ? output : "", m?.[TOOL_IO_KEYS.isError] === true);
}

function renderStatus(
  view: TurnView,
  state: TaskState | undefined,
  message: Message | undefined,
  eventMeta: Record<string, unknown> | undefined,
  c: Colors,
): Output[] {
  view.state = state;
  view.usage = usageOf(eventMeta) ?? view.usage;
  notePeers(view, eventMeta);
  const kind = metaKind(message?.metadata) ?? metaKind(eventMeta);
  const text = partsText(message?.parts);
  if (isParkedState(state)) {
    view.input = inputRequestOf(message);
    return [];
  }
  view.input = undefined;
  if (
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED
  ) {
    view.reason = text || undefined;
    return [];
  }
  switch (kind) {
    case KIND.toolUse:
      return line(view, c.dim(`• ${text || TEXT.toolUse(String(message?.metadata?.toolName))}`));
    case KIND.toolResult:
      // What a command printed says what happened; another tool's success repeats its call.
      return message?.metadata?.toolName === "Bash" || message?.metadata?.isError === true
        ? line(view, c.dim(`  ↳ ${toolResultLine(message.metadata)}`))
        : [];
    case KIND.queued:
      return line(view, c.dim(text));
    case KIND.resumed:
      return [];
    case KIND.delivery:
      // A check of a delivery round (docs/delivery.md): its line, the output stays in the proof.
      return line(view, c.dim(`• ${text}`));
    case KIND.steered:
      // The client's own message, once Claude has taken it.
      return line(view, c.dim(`↳ Claude took: ${text}`));
    case KIND.result:
    default:
      // The final answer, or any other agent's status text: shown unless it was streamed already.
      if (
        text === "" ||
        (view.streamedText && (kind === KIND.result || state === TaskState.TASK_STATE_COMPLETED))
      )
        return [];
      if (kind === KIND.result) view.streamedText = true;
      return line(view, text);
  }
}

function renderTask(view: TurnView, task: Task, c: Colors): Output[] {
  view.taskId = task.id;
  view.contextId = task.contextId;
  const state = task.status?.state;
  // A later turn of a task that delegated before: its snapshot names the peers.
  notePeers(view, task.metadata);
  if (!isTerminalState(state)) {
    view.state = state;
    if (isParkedState(state)) view.input = inputRequestOf(task.status?.message);
    return [];
  }
  view.usage = usageOf(task.metadata) ?? view.usage;
  // An agent that does not stream: the whole task at once.
  const out = task.artifacts.flatMap((a) => renderArtifact(view, a, false, c));
  return [...out, ...renderStatus(view, state, task.status?.message, task.metadata, c)];
}

/** Renders one stream event and records it in the view. */
export function renderEvent(view: TurnView, event: StreamResponse, c: Colors): Output[] {
  const p = event.payload;
  switch (p?.$case) {
    case "task":
      return renderTask(view, p.value, c);
    case "message":
      view.answeredByMessage = true;
      if (p.value.contextId) view.contextId = p.value.contextId;
      return line(view, partsText(p.value.parts));
    case "statusUpdate":
      view.taskId ??= p.value.taskId;
      view.contextId ??= p.value.contextId;
      return renderStatus(
        view,
        p.value.status?.state,
        p.value.status?.message,
        p.value.metadata,
        c,
      );
    case "artifactUpdate":
      view.taskId ??= p.value.taskId;
      view.contextId ??= p.value.contextId;
      return p.value.artifact ? renderArtifact(view, p.value.artifact, p.value.append, c) : [];
    case undefined:
      return [];
  }
}
