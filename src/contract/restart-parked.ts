import type { Message, Task } from "@a2a-js/sdk";
import type { Question } from "./data-parts.js";
import { KIND } from "./kinds.js";

/**
 * A task that waited for an answer when its server stopped stays input-required across the
 * restart (docs/tasks.md "Answers across a restart"): its status message keeps the prompt's data
 * part and kind, says in words what an answer now does, and carries `metadata.restarted: true`,
 * which is how the server (and a client) knows the prompt is no longer held by a live process.
 */
export const RESTARTED_KEY = "restarted";

/** The prompt a stored input-required status showed, as far as an answer after a restart needs. */
export type StoredPrompt =
  | { readonly kind: "question"; readonly questions: readonly Question[] }
  | {
      readonly kind: "permission";
      readonly toolName: string;
      readonly input: Record<string, unknown>;
    };

export const RESTART_PARKED_TEXT = {
  question:
    "The server restarted while this question waited for your answer. Answer it as before: " +
    "your answer goes to Claude in the resumed conversation, as the answer to this question.",
  permission: (toolName: string) =>
    `The server restarted while this permission request waited for your answer, so Claude's ` +
    `${toolName} call was stopped. Answer as before: a yes tells Claude to make the call again ` +
    `(it asks again, and you answer that request); a no tells Claude it was refused.`,
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function dataOf(message: Message | undefined): unknown[] {
  return (message?.parts ?? []).flatMap((p): unknown[] =>
    p.content?.$case === "data" ? [p.content.value as unknown] : [],
  );
}

/**
 * Pure: the question or permission request an input-required status message shows, read from its
 * data part; undefined for any other prompt (a plan, a peer's prompt, auth-required).
 */
export function storedPrompt(message: Message | undefined): StoredPrompt | undefined {
  for (const data of dataOf(message)) {
    if (!isRecord(data)) continue;
    if (data.kind === KIND.askUserQuestion && Array.isArray(data.questions)) {
      const questions = data.questions.filter(
        (q): q is Question => isRecord(q) && typeof q.question === "string",
      );
      if (questions.length > 0) return { kind: "question", questions };
    }
    if (
      data.kind === KIND.permissionRequest &&
      typeof data.toolName === "string" &&
      isRecord(data.input)
    ) {
      return { kind: "permission", toolName: data.toolName, input: data.input };
    }
  }
  return undefined;
}

/** Whether a stored task waits on a prompt its server lost in a restart. Pure. */
export function isRestartParked(task: Pick<Task, "status"> | undefined): boolean {
  return task?.status?.message?.metadata?.[RESTARTED_KEY] === true;
}
