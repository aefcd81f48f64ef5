/**
 * What the page sent is shown once: its echo in the task's history is recognised by its text,
 * whatever else the history holds before it (the prompts the page answered are in it too).
 */
import { describe, expect, it } from "vitest";
import { Role, type Message, type Part } from "@a2a-js/sdk";
import { applySent, applySnapshot, modelOf, resultRepeats } from "../../../console/task-model.js";
import { agentMessage, dataPart, newTask, textPart } from "../../../src/contract/messages.js";

const ref = { taskId: "t1", contextId: "c1" };
const user = (parts: Part[]): Message => ({ ...agentMessage(ref, parts), role: Role.ROLE_USER });
const shown = (entries: readonly { type: string; role?: string; text?: string }[]) =>
  entries.flatMap((e) => (e.type === "message" && e.role === "user" ? [e.text] : []));

describe("the page's own messages", () => {
  it("are shown once, though the history holds the prompts they answered before their echo", () => {
    const asked = user([textPart("Save the notes")]);
    const model = modelOf(newTask(ref, asked));
    // Allow (a data part only, no text), then a question's answer (its text and its data).
    applySent(model, "Allow");
    applySent(model, "red");
    const history = [
      asked,
      agentMessage(ref, [textPart("Claude wants to write")]),
      user([dataPart({ kind: "permission_response", decision: "allow" })]),
      agentMessage(ref, [textPart("Which colour?")]),
      user([textPart("red"), dataPart({ answers: { colour: "red" } })]),
    ];
    applySnapshot(model, { ...newTask(ref, asked), history });
    expect(shown(model.entries)).toEqual(["Save the notes", "Allow", "red"]);
    // A later message of the same words, sent by another client, is shown.
    applySnapshot(model, {
      ...newTask(ref, asked),
      history: [...history, user([textPart("red")])],
    });
    expect(shown(model.entries)).toEqual(["Save the notes", "Allow", "red", "red"]);
  });
});

describe("a reopened task's answers (issue 49)", () => {
  const asked = user([textPart("Save the notes")]);
  const history = [
    asked,
    agentMessage(ref, [textPart("Claude wants to write")]),
    user([dataPart({ kind: "permission_response", decision: "allow" })]),
    agentMessage(ref, [textPart("Claude wants to write again")]),
    user([dataPart({ kind: "permission_response", decision: "deny", reason: "not there" })]),
    agentMessage(ref, [textPart("Claude wants to write once more")]),
    user([dataPart({ kind: "permission_response", decision: "deny" })]),
    agentMessage(ref, [textPart("Which colours?")]),
    user([dataPart({ answers: { colours: ["red", "blue"] } })]),
  ];

  it("shows the caller's structured answers in the words the page showed when it sent them", () => {
    const model = modelOf({ ...newTask(ref, asked), history });
    expect(shown(model.entries)).toEqual([
      "Save the notes",
      "Allow",
      "Deny: not there",
      "Deny",
      "red, blue",
    ]);
  });
});

describe("a result that repeats Claude's text", () => {
  it("is the text, or its last words after what Claude said before a prompt", () => {
    expect(resultRepeats("Done.", "Done.")).toBe(true);
    expect(resultRepeats("Done.", "I will save it.Saved. A question.Done.\n")).toBe(true);
    expect(resultRepeats("Done.", "Done. And more.")).toBe(false);
    expect(resultRepeats("Done.", undefined)).toBe(false);
    expect(resultRepeats("", "Done.")).toBe(false);
  });
});
