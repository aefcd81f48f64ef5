import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { makeColors } from "../../../src/client/colors.js";
import { newView, renderEvent } from "../../../src/client/render.js";
import { oneLine, outputLine, toolLine, toolWords } from "../../../src/client/tool-summary.js";
import { status } from "../../../src/contract/statuses.js";

describe("toolWords / toolLine: a tool call in everyday words", () => {
  it.each([
    ["Bash", { command: "npm test" }, "Running npm test"],
    ["Read", { file_path: "src/app.ts" }, "Reading src/app.ts"],
    ["Write", { file_path: "story.txt", content: "…" }, "Writing story.txt"],
    ["Edit", { file_path: "a.ts", old_string: "x", new_string: "y" }, "Editing a.ts"],
    ["Grep", { pattern: "TODO", path: "src" }, "Searching for TODO in src"],
    ["Grep", { pattern: "TODO" }, "Searching for TODO"],
    ["Glob", { pattern: "**/*.ts" }, "Finding files **/*.ts"],
    ["WebFetch", { url: "https://example.com/" }, "Fetching https://example.com/"],
    ["WebSearch", { query: "a2a protocol" }, "Searching the web for a2a protocol"],
    ["Task", { description: "Review the diff", prompt: "…" }, "Delegating Review the diff"],
    ["TodoWrite", { todos: [] }, "Updating the to-do list"],
    ["mcp__a2a__ask", { peer: "x" }, "Using mcp__a2a__ask"],
    // No input on the wire (an older server): the verb alone.
    ["Bash", undefined, "Running"],
    ["Read", { file_path: "" }, "Reading"],
  ])("%s %j → %s", (tool, input, line) => {
    expect(toolLine(tool, input)).toBe(line);
  });

  it("keeps the subject apart for the console to show as code", () => {
    expect(toolWords("Bash", { command: "ls -la" })).toEqual({
      verb: "Running",
      subject: "ls -la",
    });
  });

  it("shortens a long or multi-line command to one line", () => {
    expect(toolLine("Bash", { command: "echo " + "a".repeat(100) }, 20)).toBe(
      "Running echo aaaaaaaaaaaaaa…",
    );
    expect(toolLine("Bash", { command: "cd x &&\n  make" })).toBe("Running cd x && …");
  });
});

describe("oneLine / outputLine", () => {
  it.each([
    ["  hello   world ", 80, "hello world"],
    ["abcdef", 4, "abc…"],
    ["first\nsecond", 80, "first …"],
  ])("oneLine(%j, %d) → %j", (text, max, out) => {
    expect(oneLine(text, max)).toBe(out);
  });
  it.each([
    ["", false, "no output"],
    ["3 passed", false, "3 passed"],
    ["a\nb\nc\n", false, "3 lines"],
    ["", true, "failed"],
    ["No such file\nmore", true, "failed: No such file …"],
  ])("outputLine(%j, %s) → %j", (output, isError, out) => {
    expect(outputLine(output, isError)).toBe(out);
  });
});

describe("the terminal client's line for a tool_result", () => {
  it("prints nothing for another tool's success (its call line says it)", () => {
    const ok = status.toolResult({ taskId: "t1", contextId: "ctx" }, "Write", "tu_2", false, {
      text: "File created",
      bytes: 12,
      truncated: false,
    });
    const out = renderEvent(
      newView(),
      { payload: { $case: "statusUpdate", value: ok } },
      makeColors(false),
    );
    expect(out).toEqual([]);
  });
  const ref = { taskId: "t1", contextId: "ctx" };
  const event = (isError: boolean, text: string): StreamResponse => ({
    payload: {
      $case: "statusUpdate",
      value: status.toolResult(ref, "Bash", "tu_1", isError, {
        text,
        bytes: text.length,
        truncated: false,
      }),
    },
  });
  it.each([
    [false, "1 passed\n", "  ↳ 1 passed\n"],
    [false, "a\nb\n", "  ↳ 2 lines\n"],
    [true, "command not found: nmp", "  ↳ failed: command not found: nmp\n"],
  ])("isError %s, %j", (isError, text, line) => {
    const out = renderEvent(newView(), event(isError, text), makeColors(false));
    expect(out.map((o) => o.text).join("")).toBe(line);
    expect(
      status.toolResult(ref, "Bash", "x", false, { text: "", bytes: 0, truncated: false }).status
        ?.state,
    ).toBe(TaskState.TASK_STATE_WORKING);
  });
});
