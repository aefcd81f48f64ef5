/**
 * What an input-required status asks (README "Interactive tasks") and the structured answers the
 * server takes back ("Answering"). Pure: no DOM. The shapes are the contract's
 * (`src/a2a/contract/data-parts.ts`).
 */
import { Role, type Message, type Part } from "@a2a-js/sdk";
import { KIND } from "../src/a2a/contract/kinds.js";
import type { Question } from "../src/a2a/contract/data-parts.js";

export type InputRequest =
  | { readonly kind: "question"; readonly text: string; readonly questions: readonly Question[] }
  | {
      readonly kind: "permission";
      readonly text: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly title?: string;
      readonly decisionReason?: string;
    }
  /** No data part this page knows: a prompt in plain text, answered in plain text. */
  | { readonly kind: "text"; readonly text: string };

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  mediaType: "text/plain",
  filename: "",
  metadata: undefined,
});

export const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

/** The text parts of a message, joined by newlines. */
export const messageText = (message: Message | undefined): string =>
  (message?.parts ?? [])
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n");

function questionOf(v: unknown): Question | undefined {
  if (!isRec(v) || typeof v.question !== "string") return undefined;
  const options = Array.isArray(v.options)
    ? v.options.flatMap((o) =>
        isRec(o) && typeof o.label === "string"
          ? [
              {
                label: o.label,
                ...(typeof o.description === "string" && { description: o.description }),
              },
            ]
          : [],
      )
    : [];
  return {
    question: v.question,
    ...(typeof v.header === "string" && { header: v.header }),
    options,
    multiSelect: v.multiSelect === true,
  };
}

/** Reads the status message of an input-required task. */
export function inputRequestOf(message: Message | undefined): InputRequest {
  const text = messageText(message);
  const data = message?.parts.find((p) => p.content?.$case === "data")?.content?.value as unknown;
  const kind = str(message?.metadata?.kind) ?? (isRec(data) ? str(data.kind) : undefined);
  if (kind === KIND.askUserQuestion && isRec(data) && Array.isArray(data.questions)) {
    const questions = data.questions.flatMap((q) => questionOf(q) ?? []);
    if (questions.length > 0) return { kind: "question", text, questions };
  }
  if (kind === KIND.permissionRequest && isRec(data)) {
    const title = str(data.title);
    const decisionReason = str(data.decisionReason);
    return {
      kind: "permission",
      text,
      toolName: str(data.toolName) ?? "a tool",
      input: data.input,
      ...(title !== undefined && { title }),
      ...(decisionReason !== undefined && { decisionReason }),
    };
  }
  return { kind: "text", text };
}

/** Labels chosen per question (a multi-select question may have several). */
export type Choices = Readonly<Record<string, readonly string[]>>;

/**
 * The structured answer to a question: `{ answers: { "<question>": "<label>" | [labels] } }`,
 * or the reason it cannot be sent yet (a question without a choice).
 */
export function answersPart(
  questions: readonly Question[],
  choices: Choices,
): { ok: true; part: Part } | { ok: false; missing: string } {
  const answers: Record<string, string | string[]> = {};
  for (const q of questions) {
    const chosen = (choices[q.question] ?? []).map((c) => c.trim()).filter((c) => c !== "");
    if (chosen.length === 0) return { ok: false, missing: q.question };
    answers[q.question] = q.multiSelect === true ? chosen : (chosen[0] ?? "");
  }
  return { ok: true, part: dataPart({ answers }) };
}

/** `{ kind: "permission_response", decision, reason? }`; a reason only goes with a deny. */
export function permissionPart(decision: "allow" | "deny", reason?: string): Part {
  const trimmed = reason?.trim();
  return dataPart({
    kind: "permission_response",
    decision,
    ...(decision === "deny" && trimmed !== undefined && trimmed !== "" && { reason: trimmed }),
  });
}

/** A random UUID; `crypto.randomUUID` exists only in secure contexts (https, loopback). */
export function newId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A user message on a task (an answer) or into a conversation (`contextId`, maybe new). */
export function userMessage(parts: Part[], ids: { taskId?: string; contextId?: string }): Message {
  return {
    messageId: newId(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
