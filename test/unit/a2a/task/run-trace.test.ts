import { describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../../../../src/claude/index.js";
import { RunTrace } from "../../../../src/a2a/task/run-trace.js";
import type { SpanAttributes, TraceSpan } from "../../../../src/tracing/tracing.js";

/** A span that records what is done to it, and its children. */
class FakeSpan implements TraceSpan {
  readonly children: FakeSpan[] = [];
  attributes: Record<string, unknown> = {};
  failed: string | undefined;
  ended = false;
  constructor(
    readonly name: string,
    attributes: SpanAttributes = {},
  ) {
    this.set(attributes);
  }
  set(attributes: SpanAttributes): void {
    this.attributes = { ...this.attributes, ...attributes };
  }
  fail(message: string): void {
    this.failed = message;
  }
  rename(): void {}
  end(): void {
    this.ended = true;
  }
  child(name: string, attributes?: SpanAttributes): TraceSpan {
    const span = new FakeSpan(name, attributes);
    this.children.push(span);
    return span;
  }
  headers(): Record<string, string> {
    return {};
  }
}

const toolUse = (id: string, name: string, parent: string | null = null): RunStreamEvent => ({
  kind: "assistant",
  messageId: `msg-${id}`,
  parentToolUseId: parent,
  content: [{ type: "tool_use", id, name, input: {} }],
  aborted: false,
  userMessageUuids: [],
});
const toolResult = (id: string, isError = false): RunStreamEvent => ({
  kind: "user",
  parentToolUseId: null,
  isReplay: false,
  isSynthetic: false,
  text: "",
  toolResults: [{ toolUseId: id, isError }],
  interruptMarker: false,
});

const IDS = { "a2a.task.id": "t1", "claude.run.id": "r1" };

describe("RunTrace", () => {
  it("a span per tool call, a subagent's calls under the call that started it, ended by its result", () => {
    const run = new FakeSpan("claude.run");
    const trace = new RunTrace(run, IDS);
    trace.onEvent(toolUse("tu-agent", "Task"));
    trace.onEvent(toolUse("tu-agent", "Task")); // the same block again: no second span
    trace.onEvent(toolUse("tu-grep", "Grep", "tu-agent"));
    trace.onEvent(toolResult("tu-grep", true));
    trace.onEvent(toolResult("tu-agent"));
    trace.onEvent({ kind: "run_completed", runId: "r1", text: "done" });

    expect(run.children.map((c) => c.name)).toEqual(["claude.tool"]);
    const agent = run.children[0] as FakeSpan;
    expect(agent.attributes).toEqual({
      ...IDS,
      "claude.tool.name": "Task",
      "claude.tool.use_id": "tu-agent",
    });
    expect(agent.children.map((c) => c.attributes["claude.tool.name"])).toEqual(["Grep"]);
    const grep = agent.children[0] as FakeSpan;
    expect(grep.failed).toBe("the tool call returned an error");
    expect([agent.ended, grep.ended, run.ended]).toEqual([true, true, true]);
    expect(run.attributes["claude.run.outcome"]).toBe("completed");
  });

  it("the run's end closes the calls still open, marked unfinished; a failed run fails its span", () => {
    const run = new FakeSpan("claude.run");
    const trace = new RunTrace(run, IDS);
    trace.onEvent(toolUse("tu-bash", "Bash"));
    trace.onEvent({ kind: "run_failed", runId: "r1", reason: "the model API failed" });
    const bash = run.children[0] as FakeSpan;
    expect(bash.ended).toBe(true);
    expect(bash.attributes["claude.tool.finished"]).toBe(false);
    expect(run.failed).toBe("the model API failed");
    expect(run.attributes["claude.run.outcome"]).toBe("failed");
  });
});
