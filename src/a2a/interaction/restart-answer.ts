import type { Message } from "@a2a-js/sdk";
import type { StoredPrompt } from "../../contract/restart-parked.js";
import { parseAnswer, stableJson, type Answer, type InputRequest } from "./answers.js";

/**
 * An answer to a prompt the server lost in a restart (docs/tasks.md "Answers across a restart").
 * The Claude Code process that awaited it is gone, so the answer cannot settle the tool call: it
 * becomes the prompt of a new turn in the resumed conversation, which says what was asked and
 * what the caller answered. Pure.
 */

/** The stored prompt as the live answer reader knows it, so an answer reads the same way. */
export function asInputRequest(prompt: StoredPrompt): InputRequest {
  switch (prompt.kind) {
    case "question":
      return {
        kind: "question",
        toolName: "AskUserQuestion",
        input: { questions: prompt.questions },
        questions: [...prompt.questions],
      };
    case "permission":
      return {
        kind: "permission",
        toolName: prompt.toolName,
        input: prompt.input,
        title: undefined,
        decisionReason: undefined,
      };
  }
}

/** What the new turn tells Claude, for this answer to the stored prompt. */
export function restartAnswerText(prompt: StoredPrompt, answer: Answer): string {
  const before = "The server restarted while you waited for this answer, so ";
  if (prompt.kind === "question" && answer.kind === "question") {
    const lines = Object.entries(answer.answers).map(([q, a]) => `- "${q}": ${a}`);
    return (
      `${before}your AskUserQuestion call ended without it. The user has answered your ` +
      `question${lines.length > 1 ? "s" : ""}:\n${lines.join("\n")}\nGo on with that answer.`
    );
  }
  if (prompt.kind === "permission" && answer.kind === "permission") {
    const call = `your ${prompt.toolName} call (input ${stableJson(prompt.input)}) did not run`;
    if (answer.decision.decision === "allow") {
      return (
        `${before}${call}. The user has now allowed it: make the same call again ` +
        `(the permission is asked again, and the user expects it).`
      );
    }
    const why = answer.decision.reason ? ` (${answer.decision.reason})` : "";
    return `${before}${call}. The user refused it${why}: do not make that call again; go on without it.`;
  }
  throw new Error(`an answer of kind ${answer.kind} to a ${prompt.kind} prompt`);
}

/**
 * The new turn's prompt for a message answering the stored prompt; throws `AnswerError` (with
 * the text a live prompt's reader gives) when the message is no answer to it.
 */
export function restartAnswerPrompt(prompt: StoredPrompt, message: Pick<Message, "parts">): string {
  return restartAnswerText(prompt, parseAnswer(asInputRequest(prompt), message));
}
