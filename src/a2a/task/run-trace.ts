import type { RunStreamEvent } from "../../claude/index.js";
import type { SpanAttributes, TraceSpan } from "../../tracing/tracing.js";

/**
 * The spans of one run: the run's own, and a child per tool call from its `tool_use` to its
 * `tool_result` (a subagent's calls under the call that started the subagent). Each carries the
 * ids given (task, context, caller, run). Fed every event of the run, in order; its terminal
 * event ends every span still open.
 */
export class RunTrace {
  private readonly tools = new Map<string, TraceSpan>();

  constructor(
    private readonly span: TraceSpan,
    private readonly ids: SpanAttributes,
  ) {}

  onEvent(event: RunStreamEvent): void {
    switch (event.kind) {
      case "assistant": {
        const parent =
          (event.parentToolUseId !== null && this.tools.get(event.parentToolUseId)) || this.span;
        for (const block of event.content) {
          if (block.type !== "tool_use" || this.tools.has(block.id)) continue;
          const tool = parent.child("claude.tool", {
            ...this.ids,
            "claude.tool.name": block.name,
            "claude.tool.use_id": block.id,
          });
          this.tools.set(block.id, tool);
        }
        return;
      }
      case "user":
        for (const result of event.toolResults) {
          const tool = this.tools.get(result.toolUseId);
          if (tool === undefined) continue;
          if (result.isError) tool.fail("the tool call returned an error");
          tool.end();
          this.tools.delete(result.toolUseId);
        }
        return;
      case "run_completed":
        this.finish("completed");
        return;
      case "run_interrupted":
        this.finish("interrupted");
        return;
      case "run_failed":
        this.span.fail(event.reason);
        this.finish("failed");
        return;
      default:
        return;
    }
  }

  private finish(outcome: string): void {
    for (const tool of this.tools.values()) {
      tool.set({ "claude.tool.finished": false });
      tool.end();
    }
    this.tools.clear();
    this.span.set({ "claude.run.outcome": outcome });
    this.span.end();
  }
}
