import type { Artifact, Part, StreamResponse, TaskState } from "@a2a-js/sdk";
import { KIND } from "../contract/kinds.js";
import { usageOf, type UsageFigures } from "../contract/usage.js";

/**
 * What a delegated call keeps of a peer's stream (pure): its task, its state and status text,
 * the answer (a `result` status, else the last text of the completed status or of its text
 * artifacts), its file parts, and the usage its final status reports.
 */
export interface PeerView {
  taskId: string;
  contextId: string;
  state: TaskState | undefined;
  statusText: string;
  /** The data parts of the latest status message (a prompt's `ask_user_question`…). */
  statusData: unknown[];
  resultText: string | undefined;
  readonly artifacts: Map<string, Artifact>;
  usage: UsageFigures | undefined;
}

export const emptyView = (): PeerView => ({
  taskId: "",
  contextId: "",
  state: undefined,
  statusText: "",
  statusData: [],
  resultText: undefined,
  artifacts: new Map(),
  usage: undefined,
});

export const textOf = (parts: readonly Part[]): string =>
  parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n")
    .trim();

const dataOf = (parts: readonly Part[]): unknown[] =>
  parts.flatMap((p): unknown[] => (p.content?.$case === "data" ? [p.content.value] : []));

/** Whether the state changed: the view's state after `event`, applied in place. */
export function applyPeerEvent(view: PeerView, event: StreamResponse): boolean {
  const payload = event.payload;
  switch (payload?.$case) {
    case "task": {
      const task = payload.value;
      view.taskId = task.id;
      view.contextId = task.contextId;
      for (const a of task.artifacts) view.artifacts.set(a.artifactId, a);
      return setStatus(view, task.status?.state, task.status?.message?.parts ?? [], {
        ...task.metadata,
      });
    }
    case "statusUpdate": {
      const u = payload.value;
      view.taskId ||= u.taskId;
      view.contextId ||= u.contextId;
      const message = u.status?.message;
      if (message?.metadata?.kind === KIND.result) view.resultText = textOf(message.parts);
      return setStatus(view, u.status?.state, message?.parts ?? [], u.metadata);
    }
    case "artifactUpdate": {
      const { artifact, append } = payload.value;
      if (artifact === undefined) return false;
      const before = view.artifacts.get(artifact.artifactId);
      view.artifacts.set(
        artifact.artifactId,
        append && before ? { ...before, parts: [...before.parts, ...artifact.parts] } : artifact,
      );
      return false;
    }
    case "message":
      view.resultText = textOf(payload.value.parts);
      return false;
    default:
      return false;
  }
}

function setStatus(
  view: PeerView,
  state: TaskState | undefined,
  parts: readonly Part[],
  metadata: Record<string, unknown> | undefined,
): boolean {
  const usage = usageOf(metadata);
  if (usage !== undefined) {
    // What the peer spent, its own delegations included.
    view.usage = sumFigures(usage, usage.delegated ?? NONE);
  }
  const changed = state !== view.state;
  view.state = state;
  if (parts.length > 0) {
    view.statusText = textOf(parts);
    view.statusData = dataOf(parts);
  } else if (changed) {
    view.statusText = "";
    view.statusData = [];
  }
  return changed;
}

const NONE: UsageFigures = {
  costUsd: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
};

const sumFigures = (a: UsageFigures, b: UsageFigures): UsageFigures => ({
  costUsd: a.costUsd + b.costUsd,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
  cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
});

/** The peer's answer: its `result`, else its text artifacts, else its last status text. */
export function answerOf(view: PeerView): string {
  if (view.resultText !== undefined && view.resultText !== "") return view.resultText;
  const texts = [...view.artifacts.values()]
    .filter((a) => a.metadata?.kind !== KIND.file)
    .map((a) => textOf(a.parts))
    .filter((t) => t !== "");
  return texts.length > 0 ? texts.join("\n\n") : view.statusText;
}

/** Every file part of the peer's artifacts (raw bytes with a file name). */
export function fileParts(view: PeerView): { filename: string; bytes: Buffer }[] {
  return [...view.artifacts.values()].flatMap((a) =>
    a.parts.flatMap((p) =>
      p.content?.$case === "raw"
        ? [{ filename: p.filename || a.name || a.artifactId, bytes: Buffer.from(p.content.value) }]
        : [],
    ),
  );
}
