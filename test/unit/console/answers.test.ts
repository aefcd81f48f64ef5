import { describe, expect, it } from "vitest";
import { Role, type Message } from "@a2a-js/sdk";
import {
  answersPart,
  inputRequestOf,
  permissionPart,
  dataPart,
  textPart,
} from "../../../console/answers.js";
import {
  askUserQuestionData,
  permissionRequestData,
} from "../../../src/a2a/contract/data-parts.js";

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
const toppings = {
  question: "Toppings?",
  options: [{ label: "ham" }, { label: "egg" }],
  multiSelect: true,
};

describe("inputRequestOf", () => {
  it("reads a question's data part as the contract builds it", () => {
    const req = inputRequestOf(
      status("Which colour?", askUserQuestionData([colour]), "ask_user_question"),
    );
    expect(req).toEqual({ kind: "question", text: "Which colour?", questions: [colour] });
  });

  it("reads a permission request's tool, input and reason", () => {
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

describe("answersPart", () => {
  it("sends one label per single-select question and a list for a multi-select one", () => {
    const built = answersPart([colour, toppings], {
      "Which colour?": ["blue"],
      "Toppings?": ["ham", "egg"],
    });
    expect(built).toEqual({
      ok: true,
      part: dataPart({ answers: { "Which colour?": "blue", "Toppings?": ["ham", "egg"] } }),
    });
  });

  it("refuses to send while a question has no answer", () => {
    expect(
      answersPart([colour, toppings], { "Which colour?": ["red"], "Toppings?": [" "] }),
    ).toEqual({
      ok: false,
      missing: "Toppings?",
    });
  });
});

describe("permissionPart", () => {
  it("is the README's permission_response; a reason goes with a deny only", () => {
    expect(permissionPart("allow", "because")).toEqual(
      dataPart({ kind: "permission_response", decision: "allow" }),
    );
    expect(permissionPart("deny", "  not here ")).toEqual(
      dataPart({ kind: "permission_response", decision: "deny", reason: "not here" }),
    );
    expect(permissionPart("deny", "")).toEqual(
      dataPart({ kind: "permission_response", decision: "deny" }),
    );
  });
});
