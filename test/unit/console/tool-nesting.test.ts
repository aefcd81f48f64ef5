/**
 * The console nests a subagent's calls under the call that ran them: from the wire
 * (`parentToolUseId` on `tool_use`, through the task model) to the tree the tool view draws.
 */
import { describe, expect, it } from "vitest";
import type { StreamResponse } from "@a2a-js/sdk";
import { applyEvent, modelOf, type Entry } from "../../../console/task-model.js";
import { nestTools } from "../../../console/tool-nesting.js";
import { agentMessage, newTask, textPart } from "../../../src/contract/messages.js";
import { status } from "../../../src/contract/statuses.js";

const ref = { taskId: "t1", contextId: "c1" };
const call = (toolUseId: string, parent?: string): Entry => ({
  type: "tool",
  toolUseId,
  toolName: "Bash",
  input: {},
  ...(parent !== undefined && { parent }),
});
const said: Entry = { type: "message", role: "agent", text: "hi" };

/** The tree as text: "a > b, c" (b and c under a); the top level in brackets. */
function shape(entries: readonly Entry[]): string {
  const { children, nested } = nestTools(entries);
  const top = entries.flatMap((e) =>
    e.type === "tool" && !nested.has(e.toolUseId) ? [e.toolUseId] : [],
  );
  const under = [...children].map(([p, cs]) => `${p} > ${cs.map((c) => c.toolUseId).join(", ")}`);
  return [`[${top.join(", ")}]`, ...under].join("; ");
}

describe("nestTools", () => {
  it.each<[string, Entry[], string]>([
    ["no subagent: all at the top", [call("a"), said, call("b")], "[a, b]"],
    [
      "a subagent's calls under its call, in order",
      [call("a"), call("b", "a"), said, call("c", "a")],
      "[a]; a > b, c",
    ],
    [
      "two subagents, each its own",
      [call("a"), call("x"), call("b", "a"), call("y", "x")],
      "[a, x]; a > b; x > y",
    ],
    [
      "a subagent's subagent, two levels",
      [call("a"), call("b", "a"), call("c", "b")],
      "[a]; a > b; b > c",
    ],
    ["a parent never seen: at the top", [call("b", "gone")], "[b]"],
    [
      "a parent seen only after: at the top (no cycle hides both)",
      [call("b", "a"), call("a", "b")],
      "[b]; b > a",
    ],
    ["its own parent: at the top", [call("a", "a")], "[a]"],
  ])("%s", (_, entries, expected) => {
    expect(shape(entries)).toBe(expected);
  });

  it("reads the parent from the tool_use status the server sends", () => {
    const model = modelOf(newTask(ref, agentMessage(ref, [textPart("Count the files")])));
    const ev = (u: ReturnType<typeof status.toolUse>): StreamResponse => ({
      payload: { $case: "statusUpdate", value: u },
    });
    applyEvent(
      model,
      ev(status.toolUse(ref, "Agent", "tu-agent", { input: {}, truncated: false })),
    );
    applyEvent(
      model,
      ev(
        status.toolUse(
          ref,
          "Bash",
          "tu-ls",
          { input: { command: "ls" }, truncated: false },
          "tu-agent",
        ),
      ),
    );
    expect(
      model.entries.flatMap((e) => (e.type === "tool" ? [[e.toolUseId, e.parent]] : [])),
    ).toEqual([
      ["tu-agent", undefined],
      ["tu-ls", "tu-agent"],
    ]);
    expect(shape(model.entries)).toBe("[tu-agent]; tu-agent > tu-ls");
  });
});
