/**
 * What the console sends back to an input-required task (docs/protocol.md "Answering"). Reading the
 * request and building the parts is the terminal client's code, shared (Node-free):
 * `src/client/interaction.ts` and `src/client/message-parts.ts`. Here only what the page adds:
 * the form's choices checked before the answer is built. Pure: no DOM.
 */
import type { Message, Part } from "@a2a-js/sdk";
import { answersPart as answersOf, type Question } from "../src/client/interaction.js";
import { partsText } from "../src/client/message-parts.js";

export {
  inputRequestOf,
  permissionPart,
  type InputRequest,
  type Question,
} from "../src/client/interaction.js";
export { dataPart, textPart, userMessage } from "../src/client/message-parts.js";

/** The text parts of a message, joined by newlines. */
export const messageText = (message: Message | undefined): string =>
  partsText(message?.parts, "\n");

/**
 * What the caller said in one of their messages, in the words the page showed when it was sent:
 * its text, else its structured answer (a permission's `Allow`, `Deny`, `Deny: <reason>`; a
 * question's chosen labels), so a reopened task still shows the caller's answers (issue 49).
 */
export function userWords(message: Message): string {
  const said = messageText(message);
  if (said !== "") return said;
  for (const part of message.parts) {
    if (part.content?.$case !== "data") continue;
    const data = part.content.value as Record<string, unknown> | undefined;
    if (data?.kind === "permission_response") {
      if (data.decision === "allow") return "Allow";
      return typeof data.reason === "string" && data.reason !== ""
        ? `Deny: ${data.reason}`
        : "Deny";
    }
    const answers = data?.answers;
    if (typeof answers === "object" && answers !== null) {
      return Object.values(answers)
        .map((a) => (Array.isArray(a) ? a.join(", ") : String(a)))
        .join("; ");
    }
  }
  return "";
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
    answers[q.question] = q.multiSelect ? chosen : (chosen[0] ?? "");
  }
  return { ok: true, part: answersOf(answers) };
}
