/**
 * Replay over real HTTP (the scripted server behind the real app): each SSE event's `id:` is its
 * number on both bindings, `Last-Event-ID` resumes after it, the protocol fixes of the
 * conformance run (TaskNotCancelable is 409 on HTTP+JSON, `statusTimestampAfter` is at-or-after
 * and a non-timestamp is InvalidParams), an idempotency conflict is 409, and a cursor older than
 * the retention is refused with the documented text.
 */
import { describe, expect, it } from "vitest";
import { REPLAY_TEXT } from "../../../src/contract/replay.js";
import { reply } from "../claude/support/sdk-messages.js";
import { sentStamp } from "../a2a/support/agent.js";
import {
  jsonRpc,
  restPost,
  servedAgent,
  wireMessage,
  type AgentServer,
} from "./support/agent-server.js";

interface SseEvent {
  readonly id: string | undefined;
  readonly data: Record<string, unknown>;
}

/** The events of an SSE body: each one's `id:` and parsed `data:`. */
function sseEvents(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => {
      const lines = block.split("\n");
      const id = lines.find((l) => l.startsWith("id: "))?.slice(4);
      const data = lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "{}";
      return { id, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** A finished streamed task over JSON-RPC: its SSE events and id. */
async function finishedTask(server: AgentServer, message = wireMessage()) {
  const answer = jsonRpc(server, "ci", "SendStreamingMessage", { message });
  const stamp = await sentStamp(server.h, 0);
  await server.h.fake.query.feed(...reply(stamp, "a1", "Hello there."));
  const { body } = await answer;
  const events = sseEvents(String(body.text));
  const first = events[0]?.data.result as { task?: { id: string } };
  return { events, taskId: first.task?.id ?? "" };
}

describe("SSE ids and Last-Event-ID", () => {
  it("numbers every SSE event with its id on JSON-RPC; Last-Event-ID resumes after it on both bindings", async () => {
    const s = await servedAgent({});
    const { events, taskId } = await finishedTask(s);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i + 1)));

    const rpc = await jsonRpc(s, "ci", "SubscribeToTask", { id: taskId }, { "last-event-id": "2" });
    const resumed = sseEvents(String(rpc.body.text));
    expect(resumed.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
    expect(resumed.map((e) => e.data.result)).toEqual(events.slice(2).map((e) => e.data.result));

    const rest = await restPost(
      s,
      "ci",
      `/tasks/${taskId}:subscribe`,
      {},
      { "last-event-id": "3" },
    );
    const restEvents = sseEvents(String(rest.body.text));
    expect(restEvents.map((e) => e.id)).toEqual(events.slice(3).map((e) => e.id));
  });

  it("a repeated send with the same messageId starts nothing and gets the same events", async () => {
    const s = await servedAgent({});
    const message = wireMessage();
    const { events } = await finishedTask(s, message);
    const again = await jsonRpc(s, "ci", "SendStreamingMessage", { message });
    expect(sseEvents(String(again.body.text)).map((e) => e.data.result)).toEqual(
      events.map((e) => e.data.result),
    );
    expect(s.h.fake.query.sent).toHaveLength(1);
    const other = await restPost(s, "laptop", "/message:stream", { message });
    expect(other.status).toBe(409);
    expect(JSON.stringify(other.body)).toContain("already used by another caller");
  });
});

describe("retention", () => {
  it("a cursor into a task whose events the retention dropped is refused, InvalidParams, saying none is kept", async () => {
    // Kept for 0 ms after the end: the next retention run (within a second) drops them.
    const s = await servedAgent({ config: { replay: { retainMs: 0 } } });
    const { events, taskId } = await finishedTask(s);
    expect(events.length).toBeGreaterThan(2);
    const expected = REPLAY_TEXT.tooOld(taskId, 1, undefined);
    await expect
      .poll(
        async () => {
          const rpc = await jsonRpc(
            s,
            "ci",
            "SubscribeToTask",
            { id: taskId },
            { "last-event-id": "1" },
          );
          return rpc.body.error;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toMatchObject({ code: -32602, message: expected });
    const rest = await restPost(
      s,
      "ci",
      `/tasks/${taskId}:subscribe`,
      {},
      { "last-event-id": "1" },
    );
    expect(rest.status).toBe(400);
    expect(JSON.stringify(rest.body)).toContain(expected);
    // The task itself is still there to read, as the text says.
    const got = await jsonRpc(s, "ci", "GetTask", { id: taskId });
    expect((got.body.result as { metadata: { eventNumber: number } }).metadata.eventNumber).toBe(
      events.length,
    );
  });
});

describe("protocol fixes", () => {
  it("TaskNotCancelable is HTTP 409 on HTTP+JSON", async () => {
    const s = await servedAgent({});
    const { taskId } = await finishedTask(s);
    const res = await restPost(s, "ci", `/tasks/${taskId}:cancel`, {});
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 409, status: "FAILED_PRECONDITION" } });
  });

  it("ListTasks' statusTimestampAfter is at-or-after; a non-timestamp is InvalidParams", async () => {
    const s = await servedAgent({});
    const { taskId } = await finishedTask(s);
    const got = await jsonRpc(s, "ci", "GetTask", { id: taskId });
    const at = (got.body.result as { status: { timestamp: string } }).status.timestamp;
    const listed = await jsonRpc(s, "ci", "ListTasks", { statusTimestampAfter: at });
    const ids = (listed.body.result as { tasks: { id: string }[] }).tasks.map((t) => t.id);
    expect(ids).toContain(taskId);
    const bad = await jsonRpc(s, "ci", "ListTasks", { statusTimestampAfter: "-1" });
    expect(bad.body.error).toMatchObject({ code: -32602 });
    expect(JSON.stringify(bad.body.error)).toContain("statusTimestampAfter must be an RFC 3339");
  });
});
