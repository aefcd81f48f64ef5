/**
 * What the page may offer of the control extension (docs/control.md), and what it sends for it.
 * A control is shown only where the agent's card lists it, and rewind and fork only on a task
 * that could take them (ended, with the record of where it began): the page never shows a button
 * the server is bound to refuse. Pure: no DOM, no network.
 */
import { TaskState, type AgentCard, type Message, type Task } from "@a2a-js/sdk";
import {
  CONTROL_EXTENSION_URI,
  CONTROL_KEYS,
  CONTROL_RECORD_KEY,
  CONTROLS,
  type Control,
} from "../src/contract/control.js";
import { KIND } from "../src/contract/kinds.js";
import { isTerminal } from "./format.js";

/** The controls the card's control extension lists (none without the extension). */
export function offeredControls(card: AgentCard | undefined): ReadonlySet<Control> {
  const ext = card?.capabilities?.extensions.find((e) => e.uri === CONTROL_EXTENSION_URI);
  const params = ext?.params as { controls?: unknown } | undefined;
  const listed = Array.isArray(params?.controls) ? (params.controls as unknown[]) : [];
  return new Set(CONTROLS.filter((c) => listed.includes(c)));
}

/** Whether a new task may ask for plan mode: `plan` on, and `"plan"` among `permissionModes`. */
export function offersPlanMode(card: AgentCard | undefined): boolean {
  const ext = card?.capabilities?.extensions.find((e) => e.uri === CONTROL_EXTENSION_URI);
  const modes = (ext?.params as { permissionModes?: unknown } | undefined)?.permissionModes;
  return offeredControls(card).has("plan") && Array.isArray(modes) && modes.includes("plan");
}

/** What can be done from a task of a conversation: go back to before it, or fork from it. */
export type TaskControl = "rewind" | "fork";

/**
 * The task controls shown on `task`: those the card offers, on a task that has ended and whose
 * final status recorded where it ran (`metadata.control` with its session and prompt). A dry
 * run, a refused control or a task that never reached Claude has no such record.
 */
export function taskControls(offered: ReadonlySet<Control>, task: Task): TaskControl[] {
  if (!isTerminal(task.status?.state)) return [];
  const record = task.metadata?.[CONTROL_RECORD_KEY] as Record<string, unknown> | undefined;
  if (typeof record?.sessionId !== "string" || typeof record.promptUuid !== "string") return [];
  return (["rewind", "fork"] as const).filter((c) => offered.has(c));
}

/** The request options that activate the control extension (its `A2A-Extensions` header). */
export const controlOptions = {
  serviceParameters: { "A2A-Extensions": CONTROL_EXTENSION_URI },
} as const;

/** What a message the page sends asks of the control extension. */
export type ControlAsk =
  | { readonly kind: "plan" }
  | { readonly kind: "dry-run"; readonly taskId: string }
  | { readonly kind: "rewind"; readonly taskId: string }
  | { readonly kind: "fork"; readonly taskId: string };

/** The message metadata of `ask` (docs/control.md). */
export function controlMetadata(ask: ControlAsk): Record<string, unknown> {
  switch (ask.kind) {
    case "plan":
      return { [CONTROL_KEYS.permissionMode]: "plan" };
    case "dry-run":
      return { [CONTROL_KEYS.rewindTo]: ask.taskId, [CONTROL_KEYS.dryRun]: true };
    case "rewind":
      return { [CONTROL_KEYS.rewindTo]: ask.taskId };
    case "fork":
      return { [CONTROL_KEYS.forkOf]: ask.taskId };
  }
}

const dataOf = (message: Message | undefined): Record<string, unknown> | undefined => {
  for (const p of message?.parts ?? []) {
    const v: unknown = p.content?.$case === "data" ? p.content.value : undefined;
    if (typeof v === "object" && v !== null) return v as Record<string, unknown>;
  }
  return undefined;
};

const kindOf = (message: Message | undefined): unknown =>
  message?.metadata?.kind ?? dataOf(message)?.kind;

/**
 * The plan of a `plan_approval` prompt, Markdown (its data part's `plan`, else its text part);
 * undefined for any other prompt.
 */
export function planOf(message: Message | undefined): string | undefined {
  if (kindOf(message) !== KIND.planApproval) return undefined;
  const plan = dataOf(message)?.plan;
  if (typeof plan === "string" && plan.trim() !== "") return plan;
  // No plan file: the text says Claude asks to go ahead without one.
  const part = message?.parts.find((p) => p.content?.$case === "text");
  return part?.content?.$case === "text" ? part.content.value : "";
}

/** The peer's name on a prompt that came from a delegated agent (`delegated_input`). */
export function peerOf(message: Message | undefined): string | undefined {
  if (kindOf(message) !== KIND.delegatedInput) return undefined;
  const agent = dataOf(message)?.agent;
  return typeof agent === "string" && agent !== "" ? agent : undefined;
}

/** What a rewind's dry run answered: the diff it would apply, a summary, or why it cannot. */
export type DryRun =
  | { readonly kind: "diff"; readonly diff: string }
  | { readonly kind: "summary"; readonly text: string }
  | { readonly kind: "refused"; readonly reason: string };

const decoder = new TextDecoder();

/**
 * The dry-run task's answer: under worktrees its `diff` artifact (`text/x-diff`), without them
 * the checkpoints' summary (the artifact's text); a failed task is the refusal, its reason.
 */
export function dryRunOf(task: Task): DryRun {
  const said = task.status?.message?.parts.flatMap((p) =>
    p.content?.$case === "text" ? [p.content.value] : [],
  );
  if (task.status?.state !== TaskState.TASK_STATE_COMPLETED)
    return { kind: "refused", reason: said?.join("\n") || "The dry run did not complete." };
  for (const a of task.artifacts) {
    const diff = a.parts.find((p) => p.mediaType === "text/x-diff");
    const c = diff?.content;
    if (c?.$case === "raw") return { kind: "diff", diff: decoder.decode(c.value as Uint8Array) };
    if (c?.$case === "text") return { kind: "diff", diff: c.value };
  }
  const texts = task.artifacts.flatMap((a) =>
    a.parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])),
  );
  return { kind: "summary", text: texts.join("\n") || said?.join("\n") || "" };
}
