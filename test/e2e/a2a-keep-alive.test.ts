/**
 * SSE streams never go silent: while a tool runs, every SSE answer (a streamed send over
 * JSON-RPC, a subscription over HTTP+JSON) sends `: keep-alive` comments after
 * `streaming.keepAliveMs` of silence; they carry no `id:` and are no events, so a replay after a
 * cut is unchanged; with 0, none. Raw HTTP: the official client hides comments. The slow step is
 * a Bash command that runs until the test releases it, after the comments it waits for arrived:
 * no timing decides a pass but the reader's read timeout, which the comments must beat.
 */
import { describe, expect, it } from "vitest";
import { a2a, rpcBody, V1_JSON } from "../support/harness/index.js";
import { releaseBash, slowBashRules } from "../support/harness/control.js";
import { openSse, stateOf, statusKind, taskIdOf, type SseReader } from "../support/sse.js";
import { reply, text, toolUse } from "../support/harness/model.js";

const TIMEOUT = 120_000;
const BUILD = "Build the release";

const streamBuild = (base: string, readTimeoutMs?: number) =>
  openSse(
    `${base}/a2a/jsonrpc`,
    {
      method: "POST",
      headers: { ...V1_JSON, Accept: "text/event-stream" },
      body: rpcBody("SendStreamingMessage", {
        message: { messageId: `m-${Date.now()}`, role: "ROLE_USER", parts: [{ text: BUILD }] },
      }),
    },
    readTimeoutMs,
  );

const toolRuns = (r: SseReader) => r.events.some((b) => statusKind(b) === "tool_use");
const commentsAfterTool = (r: SseReader): number => {
  const at = r.blocks.findIndex((b) => statusKind(b) === "tool_use");
  return at < 0 ? 0 : r.blocks.slice(at).filter((b) => b.comment !== undefined).length;
};
const ids = (r: SseReader) => r.events.map((b) => Number(b.id));

describe("SSE keep-alive", () => {
  it(
    "sends id-less comments on a silent stream and subscription, leaving events and replay as they were",
    async () => {
      const h = await a2a({
        config: { claude: { allowedTools: ["Bash"] }, streaming: { keepAliveMs: 200 } },
        rules: slowBashRules(),
      });
      const stream = await streamBuild(h.server.url);
      await stream.until(toolRuns);
      const taskId = taskIdOf(stream.events[0] ?? {});
      if (taskId === undefined) throw new Error("no task id");
      const subscription = await openSse(`${h.server.url}/a2a/rest/tasks/${taskId}:subscribe`, {
        headers: { "A2A-Version": "1.0" },
      });
      await stream.until((r) => commentsAfterTool(r) >= 2);
      await subscription.until((r) => r.comments.length >= 2);
      await releaseBash(h);
      await stream.finished();
      await subscription.finished();

      for (const r of [stream, subscription]) {
        expect(stateOf(r.events.at(-1) ?? {})).toBe("TASK_STATE_COMPLETED");
        expect(r.comments.every((b) => b.comment === "keep-alive" && b.id === undefined)).toBe(
          true,
        );
      }
      // Every event has its number, one more than the one before: no comment took one.
      const numbers = ids(stream);
      expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] ?? 0) + i));

      // A client cut after the tool call resumes exactly after it: the same ids and events.
      const cursor = stream.events.find((b) => statusKind(b) === "tool_use")?.id;
      const replay = await openSse(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers: { ...V1_JSON, Accept: "text/event-stream", "Last-Event-ID": String(cursor) },
        body: rpcBody("SubscribeToTask", { id: taskId }),
      });
      await replay.finished();
      const after = stream.events.filter((b) => Number(b.id) > Number(cursor));
      expect(after.length).toBeGreaterThan(1);
      expect(ids(replay)).toEqual(ids({ events: after } as SseReader));
      expect(replay.events.map((b) => b.data?.result)).toEqual(after.map((b) => b.data?.result));
    },
    TIMEOUT,
  );

  it(
    "keeps a reader with a 5 s read timeout (the Python SDK's default) through a longer silent step",
    async () => {
      const h = await a2a({
        config: { claude: { allowedTools: ["Bash"] }, streaming: { keepAliveMs: 1_000 } },
        rules: slowBashRules(),
      });
      const stream = await streamBuild(h.server.url, 5_000);
      // Six comments after the tool began: over five seconds with no event.
      await stream.until((r) => commentsAfterTool(r) >= 6);
      await releaseBash(h);
      await stream.finished();
      expect(stateOf(stream.events.at(-1) ?? {})).toBe("TASK_STATE_COMPLETED");
    },
    TIMEOUT,
  );

  it(
    "sends none with keepAliveMs 0",
    async () => {
      const h = await a2a({
        config: { claude: { allowedTools: ["Bash"] }, streaming: { keepAliveMs: 0 } },
        rules: [
          {
            name: "wait",
            match: { lastUserText: "Wait", toolResult: false },
            // The command's own second of silence; 0 must not mean "a comment every 0 ms".
            reply: reply(toolUse("Bash", { command: "sleep 1", description: "Wait" })),
          },
          { name: "waited", match: { toolResult: true }, reply: reply(text("Waited.")) },
        ],
      });
      const stream = await openSse(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers: { ...V1_JSON, Accept: "text/event-stream" },
        body: rpcBody("SendStreamingMessage", {
          message: { messageId: "m-wait", role: "ROLE_USER", parts: [{ text: "Wait" }] },
        }),
      });
      await stream.finished();
      expect(stateOf(stream.events.at(-1) ?? {})).toBe("TASK_STATE_COMPLETED");
      expect(stream.events.some((b) => statusKind(b) === "tool_use")).toBe(true);
      expect(stream.comments).toEqual([]);
    },
    TIMEOUT,
  );
});
