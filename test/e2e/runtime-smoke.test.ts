/**
 * The foundation's proof: the REAL Claude Code runtime, driven through the SDK's `query()`,
 * talks to the scripted model and nothing else.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { query, type SDKMessage, type SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterTool, bench, reply, says, writes } from "../support/harness/index.js";
import { backgroundBash } from "../support/a2a/background.js";
import { InputQueue } from "../support/input-queue.js";

const results = (msgs: SDKMessage[]) =>
  msgs.filter((m): m is SDKResultMessage => m.type === "result");
const assistantTexts = (msgs: SDKMessage[]) =>
  msgs.flatMap((m) =>
    m.type === "assistant"
      ? m.message.content.flatMap((b) => (b.type === "text" ? [b.text] : []))
      : [],
  );

describe("real Claude Code runtime against the scripted model", () => {
  it("answers a prompt with the scripted text and a success result", async () => {
    const b = await bench([says("Say hello", "Hello from the fake model", "greeting")]);
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: "Say hello", options: b.queryOptions() }))
      messages.push(m);

    expect(assistantTexts(messages)).toEqual(["Hello from the fake model"]);
    const [result] = results(messages);
    expect(result?.subtype).toBe("success");
    expect(result && "result" in result ? result.result : undefined).toBe(
      "Hello from the fake model",
    );
    expect(b.model.messageRequests).toHaveLength(1);
    expect(b.model.messageRequests[0]?.model).toBe("claude-sonnet-4-5");
    expect(b.model.unmatched).toEqual([]);
  });

  it("runs a Write tool_use in the cwd and shows the model its tool_result", async () => {
    const b = await bench();
    const target = join(b.sandbox.cwd, "notes.txt");
    b.model.setRules([
      writes("Create notes.txt", target, "written by the runtime\n", "write"),
      afterTool(/notes\.txt/, "File created.", "after-write"),
    ]);
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: "Create notes.txt", options: b.queryOptions() })) {
      messages.push(m);
    }

    expect(await readFile(target, "utf8")).toBe("written by the runtime\n");
    const [, second] = b.model.messageRequests;
    expect(second?.toolResults).toHaveLength(1);
    expect(second?.toolResults[0]?.isError).toBe(false);
    expect(b.model.requests.map((r) => r.rule)).toEqual(["write", "after-write"]);
    expect(results(messages).map((r) => r.subtype)).toEqual(["success"]);
    expect(assistantTexts(messages)).toContain("File created.");
    expect(b.model.unmatched).toEqual([]);
  });

  it("wakes up by itself when a background Bash finishes (autonomous turn)", async () => {
    const b = await bench([
      {
        name: "start-bg",
        match: { lastUserText: "Run the job in the background", toolResult: false },
        reply: reply(backgroundBash("sleep 1 && echo job-finished", "Run the job")),
      },
      afterTool(/running in background/i, "Started the job.", "started"),
      says(
        /<task-notification>[\s\S]*<status>completed<\/status>/,
        "The background job completed.",
        "wake",
      ),
    ]);
    const input = new InputQueue();
    const q = query({ prompt: input, options: b.queryOptions() });
    const messages: SDKMessage[] = [];
    const sentUuid = input.push("Run the job in the background");
    for await (const m of q) {
      messages.push(m);
      if (results(messages).length === 2) break;
    }
    input.close();
    q.close();

    const [first, second] = results(messages);
    expect(first?.subtype).toBe("success");
    expect(first?.user_message_uuid).toBe(sentUuid);
    expect(second?.subtype).toBe("success");
    // The autonomous turn: no user message caused it, a task notification did.
    expect(second?.user_message_uuid).toBeUndefined();
    expect(second?.origin?.kind).toBe("task-notification");
    expect(second && "result" in second ? second.result : undefined).toBe(
      "The background job completed.",
    );
    const notification = messages.find(
      (m) => m.type === "system" && m.subtype === "task_notification",
    );
    expect(notification && "status" in notification ? notification.status : undefined).toBe(
      "completed",
    );
    expect(b.model.requests.map((r) => r.rule)).toEqual(["start-bg", "started", "wake"]);
    expect(b.model.unmatched).toEqual([]);
  });

  it("retries after an injected 529 and then answers", async () => {
    const b = await bench([
      {
        name: "overloaded-once",
        match: { lastUserText: "Are you there" },
        reply: { kind: "overloaded" },
        times: 1,
      },
      says("Are you there", "Here after a retry", "answer"),
    ]);
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: "Are you there?", options: b.queryOptions() }))
      messages.push(m);

    expect(messages.some((m) => m.type === "system" && m.subtype === "api_retry")).toBe(true);
    expect(b.model.requests.map((r) => r.rule)).toEqual(["overloaded-once", "answer"]);
    expect(results(messages).map((r) => r.subtype)).toEqual(["success"]);
    expect(assistantTexts(messages)).toEqual(["Here after a retry"]);
  });
});
