/**
 * One task as the console shows it: the latest snapshot, plus what the page saw happen (the
 * timeline: messages, statuses with their `metadata.kind`, tool calls, Claude's text as it
 * streams, files written). Pure: events in, state out; no DOM, no network.
 */
import { Role, type Artifact, type Message, type StreamResponse, type Task } from "@a2a-js/sdk";
import { KIND } from "../src/contract/kinds.js";
import { messageText, userWords } from "./answers.js";
import { editsOf, samePath, type Edit } from "./edit-diff.js";
import {
  artifactPath,
  DIFF_TYPE,
  fileView,
  isDiff,
  partText,
  type FileView,
} from "./file-model.js";
import { stateName } from "./format.js";
import type { DeliveryEntry } from "./delivery-model.js";
import { proofViewOf, type ProofView } from "./proof-model.js";
import { deliveryEvent, toolEvent } from "./status-fold.js";

export type { FileView } from "./file-model.js";

export type Entry =
  | { readonly type: "message"; readonly role: "user" | "agent"; readonly text: string }
  | {
      readonly type: "status";
      readonly state: string;
      /** `metadata.kind` of the status message; undefined for a plain one. */
      readonly kind: string | undefined;
      readonly text: string;
      readonly toolName: string | undefined;
    }
  /** A tool call (`tool_use`): its input; its output is in `TaskModel.tools` once it came. */
  | {
      readonly type: "tool";
      readonly toolUseId: string;
      readonly toolName: string;
      readonly input: unknown;
      /** A subagent's call: the `Task`/`Agent` call it runs in (`parentToolUseId`). */
      readonly parent?: string;
    }
  /** Claude's text of one run (`assistant_text` artifact), shown as it grows. */
  | { readonly type: "text"; readonly artifactId: string }
  | {
      readonly type: "file";
      readonly artifactId: string;
      readonly path: string;
      readonly operation: string;
    }
  /** Consecutive `delivery` statuses of one round of checks, or of one target step. */
  | DeliveryEntry;

/** What a tool call returned (`tool_result`), or the sandbox's refusal of it. */
export interface ToolOutcome {
  output?: string;
  isError?: boolean;
  truncated?: boolean;
  bytes?: number;
  /** The sandbox refused the command: the status text saying how. */
  refused?: string;
}

/** Every status message the page saw, as the protocol said it (the details view). */
export interface LogLine {
  readonly state: string;
  readonly kind: string | undefined;
  readonly text: string;
}

export interface TaskModel {
  task: Task;
  readonly entries: Entry[];
  readonly tools: Map<string, ToolOutcome>;
  readonly log: LogLine[];
  /** Claude's text per `assistant_text` artifact id. */
  readonly texts: Map<string, string>;
  readonly files: Map<string, FileView>;
  /** `text/x-diff` artifacts: id → the unified diff. */
  readonly diffs: Map<string, { name: string; text: string }>;
  /** History messages already read into `entries`. */
  shownHistory: number;
  /** Texts the page sent (`applySent`) whose echo in the history is not read yet. */
  readonly sent: string[];
  /** A delivery's `proof-of-work` artifact, shown in its own panel. */
  proof: ProofView | undefined;
}

/** The edits of the last `Edit`/`MultiEdit` call the page saw on `path`. */
function lastEdits(model: TaskModel, path: string): Edit[] | undefined {
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const e = model.entries[i];
    if (e?.type !== "tool" || !samePath((e.input as { file_path?: unknown })?.file_path, path))
      continue;
    const edits = editsOf(e.toolName, e.input);
    if (edits !== undefined) return edits;
  }
  return undefined;
}

/** Files, diffs and texts of the task's stored artifacts (kept entries, previous versions). */
function absorbArtifact(model: TaskModel, artifact: Artifact, fromStream: boolean): void {
  const kind = artifact.metadata?.kind as unknown;
  if (kind === KIND.file) {
    const before = model.files.get(artifact.artifactId);
    const edits = before === undefined ? lastEdits(model, artifactPath(artifact)) : undefined;
    const next = fileView(artifact, before, edits);
    if (before !== undefined && before.content === next.content && !fromStream) return;
    model.files.set(artifact.artifactId, next);
    if (fromStream) {
      model.entries.push({
        type: "file",
        artifactId: artifact.artifactId,
        path: next.path,
        operation: next.operation,
      });
    }
  } else if (isDiff(artifact)) {
    const part = artifact.parts.find((p) => p.mediaType === DIFF_TYPE);
    // Over artifacts.maxFileBytes the artifact holds a note instead: show the note.
    const note = artifact.parts.find((p) => p.content?.$case === "text");
    const text = partText(part, DIFF_TYPE) ?? partText(note, "text/plain") ?? "";
    model.diffs.set(artifact.artifactId, { name: artifact.name || artifact.artifactId, text });
  } else if (kind === KIND.proofOfWork) {
    model.proof = proofViewOf(artifact);
  } else if (kind === KIND.assistantText) {
    const text = artifact.parts.map((p) => partText(p, "text/plain") ?? "").join("");
    if (!model.texts.has(artifact.artifactId)) {
      model.entries.push({ type: "text", artifactId: artifact.artifactId });
    }
    model.texts.set(artifact.artifactId, text);
  }
}

function historyEntries(model: TaskModel, history: readonly Message[], usersOnly: boolean): void {
  for (const m of history.slice(model.shownHistory)) {
    const role = m.role === Role.ROLE_USER ? "user" : "agent";
    if (usersOnly && role !== "user") continue;
    const text = role === "user" ? userWords(m) : messageText(m);
    // The page's own message is shown since it was sent: its echo is not shown again.
    const echo = role === "user" ? model.sent.indexOf(text) : -1;
    if (echo >= 0) model.sent.splice(echo, 1);
    else if (text !== "") model.entries.push({ type: "message", role, text });
  }
  model.shownHistory = Math.max(model.shownHistory, history.length);
}

/** A model of a task as `GetTask` returned it (history and artifacts included). */
export function modelOf(task: Task): TaskModel {
  const model: TaskModel = {
    task,
    entries: [],
    tools: new Map(),
    log: [],
    texts: new Map(),
    files: new Map(),
    diffs: new Map(),
    shownHistory: 0,
    sent: [],
    proof: undefined,
  };
  historyEntries(model, task.history, false);
  for (const a of task.artifacts) {
    // The result message already says the final text: the stored texts are not repeated.
    if (a.metadata?.kind === KIND.assistantText) continue;
    absorbArtifact(model, a, false);
  }
  return model;
}

/** A fresh snapshot (`GetTask`, a stream's task event): state, metadata, new user messages, files. */
export function applySnapshot(model: TaskModel, task: Task): void {
  model.task = { ...task, history: task.history.length > 0 ? task.history : model.task.history };
  historyEntries(model, task.history, true);
  for (const a of task.artifacts) {
    if (a.metadata?.kind !== KIND.assistantText) absorbArtifact(model, a, false);
  }
}

/**
 * Whether a `result` status only repeats Claude's text shown just before it: that text, or its
 * end (a run's text that went on across a permission or a question holds what Claude said before
 * them too, and the result is its last words). Pure.
 */
export function resultRepeats(result: string, lastText: string | undefined): boolean {
  if (lastText === undefined) return false;
  const said = result.trim();
  return said !== "" && lastText.trimEnd().endsWith(said);
}

/** A message the page sent (an answer, a follow-up), shown before the server echoes it. */
export function applySent(model: TaskModel, text: string): void {
  model.entries.push({ type: "message", role: "user", text });
  // Matched by its text, not counted: the history also holds the prompts the page answered.
  model.sent.push(text);
}

/**
 * An append to Claude's text: added to what the page holds, in place, so a long answer costs
 * each chunk's length, not the whole text again per chunk (false: not such an append).
 */
function appendedText(
  model: TaskModel,
  stored: Artifact | undefined,
  append: boolean,
  parts: Artifact["parts"],
): boolean {
  if (!append || stored?.metadata?.kind !== KIND.assistantText) return false;
  const before = model.texts.get(stored.artifactId);
  if (before === undefined) return false;
  stored.parts.push(...parts);
  model.texts.set(
    stored.artifactId,
    before + parts.map((p) => partText(p, "text/plain") ?? "").join(""),
  );
  return true;
}

/** One event of a stream (`SendStreamingMessage`, `SubscribeToTask`) of this task. */
export function applyEvent(model: TaskModel, event: StreamResponse): void {
  const p = event.payload;
  if (p === undefined) return;
  switch (p.$case) {
    case "task":
      if (p.value.id === model.task.id) applySnapshot(model, p.value);
      return;
    case "statusUpdate": {
      if (p.value.taskId !== model.task.id) return;
      const status = p.value.status;
      model.task = {
        ...model.task,
        status,
        metadata: { ...model.task.metadata, ...p.value.metadata },
      };
      const message = status?.message;
      if (message === undefined) return;
      const kind = typeof message.metadata?.kind === "string" ? message.metadata.kind : undefined;
      const meta = message.metadata ?? {};
      const toolName = typeof meta.toolName === "string" ? meta.toolName : undefined;
      const state = stateName(status?.state);
      const text = messageText(message);
      model.log.push({ state, kind, text });
      if (toolEvent(model, kind, meta, text) || deliveryEvent(model, kind, meta, text)) return;
      model.entries.push({ type: "status", state, kind, text, toolName });
      return;
    }
    case "artifactUpdate": {
      if (p.value.taskId !== model.task.id || p.value.artifact === undefined) return;
      const incoming = p.value.artifact;
      const stored = model.task.artifacts.find((a) => a.artifactId === incoming.artifactId);
      if (appendedText(model, stored, p.value.append, incoming.parts)) return;
      const merged: Artifact =
        p.value.append && stored !== undefined
          ? { ...stored, parts: [...stored.parts, ...incoming.parts] }
          : incoming;
      model.task = {
        ...model.task,
        artifacts: [
          ...model.task.artifacts.filter((a) => a.artifactId !== merged.artifactId),
          merged,
        ],
      };
      absorbArtifact(model, merged, incoming.metadata?.kind === KIND.file || stored === undefined);
      return;
    }
    case "message":
      model.entries.push({ type: "message", role: "agent", text: messageText(p.value) });
      return;
  }
}
