/**
 * The spans of a real task (the real runtime writes a file with its Write tool), exported to an
 * in-memory exporter: the request, under the client's W3C traceparent, then the task, its run
 * and the tool call, all in the client's trace and with the ids.
 */
import { join } from "node:path";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { createTracing } from "../../src/tracing/otel.js";
import { a2a, afterTool, writes } from "../support/harness/index.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";

/** The client's fetch, as an instrumented agent's would be: every request carries its span. */
const tracedFetch: typeof fetch = (input, init) => {
  const headers = new Headers(
    init?.headers ?? (input instanceof Request ? input.headers : undefined),
  );
  headers.set("traceparent", `00-${TRACE_ID}-${CLIENT_SPAN}-01`);
  return fetch(input, { ...init, headers });
};

const byName = (spans: readonly ReadableSpan[], name: string) =>
  spans.filter((s) => s.name === name);

describe("tracing (real runtime)", () => {
  it("a task that writes a file: request → task → run → Write, in the client's trace, with the ids", async () => {
    const exporter = new InMemorySpanExporter();
    const h = await a2a({
      tracing: () => createTracing({ serviceName: "claude-a2a-e2e", exporter, immediate: true }),
      fetchImpl: tracedFetch,
    });
    const target = join(h.bench.sandbox.cwd, "notes.txt");
    h.bench.model.setRules([
      writes("Write the notes", target, "traced\n", "write"),
      afterTool(/notes\.txt/, "Written.", "done"),
    ]);

    const task = await h.send("Write the notes");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect.poll(() => byName(exporter.getFinishedSpans(), "a2a.task").length).toBe(1);

    const spans = exporter.getFinishedSpans();
    const requests = byName(spans, "A2A SendMessage");
    expect(requests).toHaveLength(1);
    const [request] = requests as [ReadableSpan];
    const [taskSpan] = byName(spans, "a2a.task") as [ReadableSpan];
    const runs = byName(spans, "claude.run");
    expect(runs).toHaveLength(1);
    const [run] = runs as [ReadableSpan];
    const tools = byName(spans, "claude.tool");
    expect(tools.map((t) => t.attributes["claude.tool.name"])).toEqual(["Write"]);
    const [tool] = tools as [ReadableSpan];

    for (const span of [request, taskSpan, run, tool])
      expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(request.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(taskSpan.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(run.parentSpanContext?.spanId).toBe(taskSpan.spanContext().spanId);
    expect(tool.parentSpanContext?.spanId).toBe(run.spanContext().spanId);

    const ids = {
      "a2a.task.id": task.id,
      "a2a.context.id": task.contextId,
      "a2a.caller": "unknown",
    };
    expect(request.attributes).toMatchObject({ ...ids, "a2a.method": "SendMessage" });
    expect(taskSpan.attributes).toMatchObject({ ...ids, "a2a.task.state": "completed" });
    expect(run.attributes).toMatchObject({ ...ids, "claude.run.outcome": "completed" });
    expect(tool.attributes).toMatchObject({
      ...ids,
      "claude.run.id": run.attributes["claude.run.id"],
    });
    expect(String(tool.attributes["claude.tool.use_id"])).toMatch(/^toolu_/);
    expect(tool.status.code).not.toBe(2); // the write succeeded
  }, 120_000);
});
