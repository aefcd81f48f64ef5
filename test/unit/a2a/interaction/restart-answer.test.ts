/** How an answer to a prompt kept across a restart becomes the prompt of a new turn. */
import { describe, expect, it } from "vitest";
import { dataPart, textPart } from "../../../../src/contract/messages.js";
import type { StoredPrompt } from "../../../../src/contract/restart-parked.js";
import { restartAnswerPrompt } from "../../../../src/a2a/interaction/restart-answer.js";
import { NOT_CLEAR_REASON } from "../../../../src/a2a/interaction/permission-reply.js";

const question: StoredPrompt = {
  kind: "question",
  questions: [{ question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] }],
};
const permission: StoredPrompt = {
  kind: "permission",
  toolName: "Write",
  input: { file_path: "/x", content: "y" },
};
const text = (t: string) => ({ parts: [textPart(t)] });

describe("an answer after a restart: the new turn's prompt", () => {
  it("a question's answer in words is the answer to the question it asked", () => {
    const prompt = restartAnswerPrompt(question, text("Blue"));
    expect(prompt).toContain('"Which colour?": Blue');
    expect(prompt).toMatch(/^The server restarted while you waited for this answer/);
  });

  it("a structured answer names its question; an unknown question is refused", () => {
    const answer = { parts: [dataPart({ answers: { "Which colour?": "Red" } })] };
    expect(restartAnswerPrompt(question, answer)).toContain('"Which colour?": Red');
    const wrong = { parts: [dataPart({ answers: { "Which size?": "L" } })] };
    expect(() => restartAnswerPrompt(question, wrong)).toThrow(
      '"Which size?" is not one of the questions asked.',
    );
  });

  it("an empty answer to a question is refused as a live prompt refuses it", () => {
    expect(() => restartAnswerPrompt(question, text(""))).toThrow(/has no text/);
  });

  it("a yes to a permission asks Claude to make the call again (which asks again)", () => {
    const prompt = restartAnswerPrompt(permission, text("yes"));
    expect(prompt).toContain(
      'your Write call (input {"content":"y","file_path":"/x"}) did not run',
    );
    expect(prompt).toContain("The user has now allowed it: make the same call again");
  });

  it("a no, or anything not a clear yes, tells Claude it was refused", () => {
    expect(restartAnswerPrompt(permission, text("no"))).toContain(
      "The user refused it: do not make that call again",
    );
    expect(restartAnswerPrompt(permission, text("hmm, maybe later"))).toContain(
      `The user refused it (${NOT_CLEAR_REASON})`,
    );
    const structured = {
      parts: [dataPart({ kind: "permission_response", decision: "deny", reason: "too risky" })],
    };
    expect(restartAnswerPrompt(permission, structured)).toContain("refused it (too risky)");
  });
});
