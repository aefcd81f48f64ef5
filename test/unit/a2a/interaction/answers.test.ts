import { describe, expect, it } from "vitest";
import {
  AnswerError,
  denialKey,
  denialMessage,
  parseAnswer,
  inputRequestContent,
  type InputRequest,
} from "../../../../src/a2a/interaction/answers.js";
import { COLOUR_QUESTION } from "../../../support/a2a/stream-view.js";
import { textPart as text, dataPart as data } from "../../../../src/contract/messages.js";

const permission: InputRequest = {
  kind: "permission",
  toolName: "Bash",
  input: { command: "rm -rf build" },
  title: "Claude wants to run `rm -rf build`",
  decisionReason: "Bash command not in allowedTools",
};
const colour: InputRequest = {
  kind: "question",
  toolName: "AskUserQuestion",
  input: {},
  questions: [
    COLOUR_QUESTION,
    { question: "Which sizes?", header: "Size", options: [], multiSelect: true },
  ],
};

describe("denial text", () => {
  it("is the docs' two sentences, with the reason when there is one", () => {
    expect(denialMessage("no writes outside the repo")).toBe(
      "The user denied this action (no writes outside the repo). Do not request the same permission again; pick another approach or finish the task and explain.",
    );
    expect(denialMessage(undefined)).toBe(
      "The user denied this action. Do not request the same permission again; pick another approach or finish the task and explain.",
    );
  });

  it("keys denials by tool and input, whatever the key order", () => {
    expect(denialKey("Bash", { a: 1, b: { c: 2, d: 3 } })).toBe(
      denialKey("Bash", { b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(denialKey("Bash", { a: 1 })).not.toBe(denialKey("Write", { a: 1 }));
    expect(denialKey("Bash", { a: 1 })).not.toBe(denialKey("Bash", { a: 2 }));
  });
});

describe("parseAnswer", () => {
  it("a structured permission_response beats a contradicting text part", () => {
    const answer = parseAnswer(permission, {
      parts: [
        text("yes"),
        data({
          kind: "permission_response",
          decision: "deny",
          reason: "no writes outside the repo",
        }),
      ],
    });
    expect(answer).toEqual({
      kind: "permission",
      decision: { decision: "deny", reason: "no writes outside the repo" },
    });
    expect(
      parseAnswer(permission, {
        parts: [text("no"), data({ kind: "permission_response", decision: "allow" })],
      }),
    ).toEqual({ kind: "permission", decision: { decision: "allow" } });
  });

  it("refuses a permission_response without a valid decision", () => {
    expect(() =>
      parseAnswer(permission, {
        parts: [data({ kind: "permission_response", decision: "maybe" })],
      }),
    ).toThrow(AnswerError);
  });

  it("free text answers the first question; structured answers several, multi-select joined", () => {
    expect(parseAnswer(colour, { parts: [text("blue")] })).toEqual({
      kind: "question",
      answers: { "Which colour do you prefer?": "blue" },
    });
    expect(
      parseAnswer(colour, {
        parts: [
          text("ignored"),
          data({ answers: { "Which colour do you prefer?": "red", "Which sizes?": ["S", "M"] } }),
        ],
      }),
    ).toEqual({
      kind: "question",
      answers: { "Which colour do you prefer?": "red", "Which sizes?": "S, M" },
    });
  });

  it("refuses answers to questions that were not asked, and empty answers", () => {
    expect(() => parseAnswer(colour, { parts: [data({ answers: { "What?": "x" } })] })).toThrow(
      /"What\?" is not one of the questions asked/,
    );
    expect(() => parseAnswer(colour, { parts: [text("  ")] })).toThrow(AnswerError);
  });
});

describe("input-required content", () => {
  it("puts the bare question texts in the text part and the rest in the data part", () => {
    const { text: t, data: d } = inputRequestContent(colour);
    expect(t).toBe("Which colour do you prefer?\nWhich sizes?");
    expect(d).toEqual({ kind: "ask_user_question", questions: colour.questions });
  });

  it("uses the title (or the tool name) for a permission request", () => {
    expect(inputRequestContent(permission)).toEqual({
      text: "Claude wants to run `rm -rf build`.",
      data: {
        kind: "permission_request",
        toolName: "Bash",
        input: { command: "rm -rf build" },
        title: "Claude wants to run `rm -rf build`",
        decisionReason: "Bash command not in allowedTools",
      },
    });
    const untitled = { ...permission, title: undefined };
    expect(inputRequestContent(untitled).text).toBe("Claude wants to use Bash.");
  });
});
