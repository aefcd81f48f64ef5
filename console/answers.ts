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
export { dataPart, newId, textPart, userMessage } from "../src/client/message-parts.js";

/** The text parts of a message, joined by newlines. */
export const messageText = (message: Message | undefined): string =>
  partsText(message?.parts, "\n");

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
