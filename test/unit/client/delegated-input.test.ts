/** A peer's prompt passed up (`delegated_input`) reads, in both clients, as the peer's own. */
import { describe, expect, it } from "vitest";
import { Role, type Message } from "@a2a-js/sdk";
import { askUserQuestionData, permissionRequestData } from "../../../src/contract/data-parts.js";
import { delegatedInputData, DELEGATION_TEXT } from "../../../src/contract/delegation.js";
import { KIND } from "../../../src/contract/kinds.js";
import { inputRequestOf } from "../../../src/client/interaction.js";
import { dataPart, textPart } from "../../../src/client/message-parts.js";

const prompt = (inner: unknown[]): Message => ({
  messageId: "m",
  contextId: "",
  taskId: "",
  role: Role.ROLE_AGENT,
  parts: [
    textPart(DELEGATION_TEXT.input("b", "Pick one")),
    dataPart(delegatedInputData({ agent: "b", taskId: "p1", text: "Pick one", data: inner })),
  ],
  metadata: { kind: KIND.delegatedInput },
  extensions: [],
  referenceTaskIds: [],
});

describe("inputRequestOf a delegated_input", () => {
  it.each([
    [[askUserQuestionData([{ question: "Pick one", options: [{ label: "red" }] }])], "question"],
    [
      [
        permissionRequestData({
          toolName: "Write",
          input: {},
          title: undefined,
          decisionReason: undefined,
        }),
      ],
      "permission",
    ],
    [[], "text"],
    [[{ kind: "something_else" }], "text"],
  ])("%o reads as a %s prompt, its text naming the peer", (inner, kind) => {
    const request = inputRequestOf(prompt(inner));
    expect(request.kind).toBe(kind);
    expect(request.text).toBe("Peer b asks: Pick one");
  });
});
