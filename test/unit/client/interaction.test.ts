/**
 * The Node-free client code the terminal client and the browser console share
 * (src/client/interaction.ts, src/client/message-parts.ts): tested once, here.
 */
import { describe, expect, it } from "vitest";
import { Role, type Message } from "@a2a-js/sdk";
import { askUserQuestionData, permissionRequestData } from "../../../src/contract/data-parts.js";
import {
  answersPart,
  describeInput,
  inputRequestOf,
  permissionPart,
} from "../../../src/client/interaction.js";
import {
  dataPart,
  firstData,
  newId,
  partsText,
  textPart,
  userMessage,
} from "../../../src/client/message-parts.js";

describe("input requests and answers", () => {
  const message = (parts: ReturnType<typeof textPart>[], kind?: string) => ({
    messageId: "m",
    contextId: "",
    taskId: "",
    role: Role.ROLE_AGENT,
    parts,
    metadata: kind ? { kind } : undefined,
    extensions: [],
    referenceTaskIds: [],
  });

  it("reads a question, a permission request, and plain text from any other agent", () => {
    const q = {
      question: "Which?",
      header: "H",
      options: [{ label: "a", description: "A" }, { label: "b" }, { nolabel: 1 }],
      multiSelect: true,
    };
    expect(
      inputRequestOf(
        message(
          [textPart("Which?"), dataPart({ kind: "ask_user_question", questions: [q] })],
          "ask_user_question",
        ),
      ),
    ).toEqual({
      kind: "question",
      text: "Which?",
      questions: [
        {
          question: "Which?",
          header: "H",
          options: [{ label: "a", description: "A" }, { label: "b" }],
          multiSelect: true,
        },
      ],
    });
    expect(
      inputRequestOf(
        message(
          [
            textPart("Claude wants to use Write."),
            dataPart({ kind: "permission_request", toolName: "Write", input: { file_path: "/x" } }),
          ],
          "permission_request",
        ),
      ),
    ).toEqual({
      kind: "permission",
      text: "Claude wants to use Write.",
      toolName: "Write",
      input: { file_path: "/x" },
    });
    expect(inputRequestOf(message([textPart("Your name?")]))).toEqual({
      kind: "text",
      text: "Your name?",
    });
    // A question kind with nothing usable falls back to text.
    expect(
      inputRequestOf(
        message(
          [textPart("?"), dataPart({ kind: "ask_user_question", questions: [] })],
          "ask_user_question",
        ),
      ).kind,
    ).toBe("text");
  });

  it("builds the structured answers the server takes", () => {
    expect(answersPart({ "Which?": "a", "Many?": ["x", "y"] }).content).toEqual({
      $case: "data",
      value: { answers: { "Which?": "a", "Many?": ["x", "y"] } },
    });
    expect(permissionPart("allow", "ignored").content).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "allow" },
    });
    expect(permissionPart("deny", "  not there ").content).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "deny", reason: "not there" },
    });
    expect(permissionPart("deny", " ").content).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "deny" },
    });
  });

  it("describes a tool input in one line", () => {
    expect(describeInput({ command: "ls -la" })).toBe("$ ls -la");
    expect(describeInput({ file_path: "/a/b", content: "x" })).toBe("/a/b (content)");
    expect(describeInput({ url: "u" })).toBe('{"url":"u"}');
    expect(describeInput({ command: "x".repeat(500) }, 10)).toBe("$ xxxxxxx…");
  });
});

describe("input requests as the contract builds them", () => {
  const status = (text: string, data: unknown, kind: string): Message => ({
    messageId: "m",
    contextId: "c",
    taskId: "t",
    role: Role.ROLE_AGENT,
    parts: [textPart(text), dataPart(data)],
    metadata: { kind },
    extensions: [],
    referenceTaskIds: [],
  });
  const colour = {
    question: "Which colour?",
    header: "Colour",
    options: [{ label: "red" }, { label: "blue", description: "Choose blue" }],
    multiSelect: false,
  };

  it("reads a question's data part", () => {
    const req = inputRequestOf(
      status("Which colour?", askUserQuestionData([colour]), "ask_user_question"),
    );
    expect(req).toEqual({ kind: "question", text: "Which colour?", questions: [colour] });
  });

  it("reads a permission request's tool, input and reason (no title when it has none)", () => {
    const data = permissionRequestData({
      toolName: "Bash",
      input: { command: "git push" },
      title: undefined,
      decisionReason: "This command requires approval",
    });
    expect(inputRequestOf(status("Claude wants to use Bash.", data, "permission_request"))).toEqual(
      {
        kind: "permission",
        text: "Claude wants to use Bash.",
        toolName: "Bash",
        input: { command: "git push" },
        decisionReason: "This command requires approval",
      },
    );
  });

  it("falls back to plain text for a prompt it does not know", () => {
    expect(inputRequestOf(status("Anything?", { kind: "other" }, "other"))).toEqual({
      kind: "text",
      text: "Anything?",
    });
  });
});

describe("message parts", () => {
  it("a text part says text/plain, as the server's own do; a data part application/json", () => {
    expect(textPart("hi")).toEqual({
      content: { $case: "text", value: "hi" },
      mediaType: "text/plain",
      filename: "",
      metadata: undefined,
    });
    expect(dataPart({ a: 1 }).mediaType).toBe("application/json");
  });

  it("joins text parts (by nothing, or a separator) and finds the first data part", () => {
    const parts = [textPart("a"), dataPart({ n: 1 }), textPart("b"), dataPart({ n: 2 })];
    expect(partsText(parts)).toBe("ab");
    expect(partsText(parts, "\n")).toBe("a\nb");
    expect(partsText(undefined)).toBe("");
    expect(firstData(parts)).toEqual({ n: 1 });
    expect(firstData([textPart("a")])).toBeUndefined();
  });

  it("a user message gets a fresh UUID and the ids it is given", () => {
    const m = userMessage([textPart("x")], { taskId: "t" });
    expect(m).toMatchObject({ taskId: "t", contextId: "", role: Role.ROLE_USER });
    expect(m.messageId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(newId()).not.toBe(newId());
  });

  it("without crypto.randomUUID (a browser's insecure context), a version-4 UUID all the same", () => {
    const real = crypto.randomUUID.bind(crypto);
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      expect(newId()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: real, configurable: true });
    }
  });
});
