/**
 * Delegation keeps the trace (issue 35, docs/peers.md): with tracing on in both servers, the
 * request B receives from A's send_message carries A's task span as its W3C traceparent, so B's
 * request span, task and run are children in A's trace.
 */
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { createTracing } from "../../src/tracing/otel.js";
import { a2a, delegating, peerOf, resultOf, says } from "../support/harness/index.js";

const byName = (spans: readonly ReadableSpan[], name: string) =>
  spans.filter((s) => s.name === name);

const traced = (exporter: InMemorySpanExporter, serviceName: string) => () =>
  createTracing({ serviceName, exporter, immediate: true });

describe("delegation and tracing", () => {
  it("B's request from A's send_message is a child of A's task span, in A's trace", async () => {
    const aSpans = new InMemorySpanExporter();
    const bSpans = new InMemorySpanExporter();
    const b = await a2a({
      tracing: traced(bSpans, "peer-b"),
      rules: [says("Trace me", "B traced")],
    });
    const a = await a2a({
      tracing: traced(aSpans, "peer-a"),
      config: peerOf(b),
      rules: delegating("Ask B, traced", { agent: "b", text: "Trace me" }),
    });

    const task = await a.send("Ask B, traced");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(task)).toContain("B traced");
    await expect.poll(() => byName(aSpans.getFinishedSpans(), "a2a.task").length).toBe(1);
    await expect.poll(() => byName(bSpans.getFinishedSpans(), "a2a.task").length).toBe(1);

    const [aTask] = byName(aSpans.getFinishedSpans(), "a2a.task") as [ReadableSpan];
    const bRequests = byName(bSpans.getFinishedSpans(), "A2A SendStreamingMessage");
    expect(bRequests).toHaveLength(1);
    const [bRequest] = bRequests as [ReadableSpan];
    const [bTask] = byName(bSpans.getFinishedSpans(), "a2a.task") as [ReadableSpan];
    const trace = aTask.spanContext().traceId;
    expect(bRequest.spanContext().traceId).toBe(trace);
    expect(bRequest.parentSpanContext?.spanId).toBe(aTask.spanContext().spanId);
    expect(bTask.spanContext().traceId).toBe(trace);
    expect(bTask.parentSpanContext?.spanId).toBe(bRequest.spanContext().spanId);
  }, 120_000);
});
