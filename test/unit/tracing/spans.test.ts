/**
 * The spans of one request, with an in-memory exporter: the whole server but Claude over real
 * HTTP on 127.0.0.1, a scripted run with a tool call, and a webhook receiver on loopback.
 */
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it, vi } from "vitest";
import { createTracing } from "../../../src/tracing/otel.js";
import { perTest } from "../../support/harness/scope.js";
import { WebhookReceiver } from "../../support/webhook.js";
import { sentStamp } from "../a2a/support/agent.js";
import { sdk } from "../claude/support/sdk-messages.js";
import { answeredTaskId, jsonRpc, servedAgent, wireMessage } from "../http/support/agent-server.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;

async function serveTraced() {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing({ serviceName: "agent-under-test", exporter, immediate: true });
  const s = await servedAgent({
    tracing,
    config: { server: { pushAllowPrivateNetworks: true } },
  });
  return { s, exporter };
}

const named = (spans: readonly ReadableSpan[], name: string) =>
  spans.filter((s) => s.name === name);
const one = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = named(spans, name);
  if (found.length !== 1)
    throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("tracing: one request's spans", () => {
  it("request → task → run → tool call, with the ids, under the incoming traceparent; the webhook gets the task's traceparent", async () => {
    const { s, exporter } = await serveTraced();
    const receiver = perTest(await WebhookReceiver.start());
    const sending = jsonRpc(
      s,
      "ci",
      "SendMessage",
      {
        message: wireMessage({ text: "read the notes" }),
        configuration: { taskPushNotificationConfig: { url: receiver.url, token: "hook-token" } },
      },
      { traceparent: TRACEPARENT },
    );
    const stamp = await sentStamp(s.h, 0);
    await s.h.fake.query.feed(
      sdk.init(),
      sdk.toolUse("m1", "tu-read", "Read", { file_path: "notes.txt" }, { stamp }),
      sdk.toolResult("tu-read", "the notes"),
      sdk.text("m2", "They say hello.", { stamp }),
      sdk.result({ text: "They say hello.", stamp }),
    );
    const taskId = answeredTaskId(await sending);
    await vi.waitFor(() => expect(named(exporter.getFinishedSpans(), "a2a.task")).toHaveLength(1));

    const spans = exporter.getFinishedSpans();
    const request = one(spans, "A2A SendMessage");
    const task = one(spans, "a2a.task");
    const run = one(spans, "claude.run");
    const tool = one(spans, "claude.tool");
    // One trace, the caller's: the request is a child of the incoming traceparent.
    for (const span of [request, task, run, tool])
      expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(request)).toBe(PARENT_SPAN);
    expect(parentOf(task)).toBe(request.spanContext().spanId);
    expect(parentOf(run)).toBe(task.spanContext().spanId);
    expect(parentOf(tool)).toBe(run.spanContext().spanId);

    const contextId = task.attributes["a2a.context.id"];
    expect(typeof contextId).toBe("string");
    const ids = { "a2a.task.id": taskId, "a2a.context.id": contextId, "a2a.caller": "token:ci" };
    expect(request.attributes).toMatchObject({
      ...ids,
      "a2a.method": "SendMessage",
      "a2a.binding": "jsonrpc",
      "http.response.status_code": 200,
    });
    expect(task.attributes).toMatchObject({
      ...ids,
      "a2a.task.origin": "client",
      "a2a.task.state": "completed",
    });
    const runId = run.attributes["claude.run.id"];
    expect(typeof runId).toBe("string");
    expect(run.attributes).toMatchObject({
      ...ids,
      "claude.run.origin": "foreground",
      "claude.run.outcome": "completed",
    });
    expect(tool.attributes).toMatchObject({
      ...ids,
      "claude.run.id": runId,
      "claude.tool.name": "Read",
      "claude.tool.use_id": "tu-read",
    });
    expect(request.resource.attributes["service.name"]).toBe("agent-under-test");

    // Push notifications carry the task's span as their traceparent: the receiver's work joins.
    const delivery = await receiver.waitFor((d) => d.headers.traceparent !== undefined);
    expect(delivery.headers.traceparent).toBe(`00-${TRACE_ID}-${task.spanContext().spanId}-01`);
  });

  it("a request without a traceparent starts its own trace; other methods are spans too", async () => {
    const { s, exporter } = await serveTraced();
    const answer = await jsonRpc(s, "laptop", "GetTask", { id: "no-such-task" });
    expect(answer.body.error).toBeDefined();
    await vi.waitFor(() =>
      expect(named(exporter.getFinishedSpans(), "A2A GetTask")).toHaveLength(1),
    );
    const span = one(exporter.getFinishedSpans(), "A2A GetTask");
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toMatchObject({
      "a2a.caller": "token:laptop",
      "a2a.task.id": "no-such-task",
      "a2a.error.code": -32001,
    });
    expect(span.status.code).toBe(2); // ERROR
  });
});
