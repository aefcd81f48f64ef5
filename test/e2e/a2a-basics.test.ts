/**
 * The docs' contract through the official A2A client, over real HTTP, against our server
 * running the REAL Claude Code runtime with a scripted model; over JSON-RPC, and over the
 * HTTP+JSON (REST) binding, the card's second interface.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Part, type StreamResponse } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions } from "@a2a-js/sdk/client";
import {
  a2a,
  afterTool,
  collect,
  describeStream,
  messageText,
  partsText,
  reply,
  resultOf,
  says,
  sendForTask,
  sendRequest,
  text,
  toolUse,
  userMessage,
  writes,
} from "../support/harness/index.js";

/** [filename, mediaType, content] of each raw (file) part; a text part would show as text. */
const fileParts = (parts: readonly Part[]) =>
  parts.map((p) =>
    p.content?.$case === "raw"
      ? [p.filename, p.mediaType, Buffer.from(p.content.value).toString("utf8")]
      : [p.content?.$case],
  );

const artifactTexts = (events: StreamResponse[]) =>
  events.flatMap((e) =>
    e.payload?.$case === "artifactUpdate"
      ? [
          {
            append: e.payload.value.append,
            lastChunk: e.payload.value.lastChunk,
            text: partsText(e.payload.value.artifact?.parts ?? []),
          },
        ]
      : [],
  );

describe("A2A server: single turns", () => {
  it("a plain single-turn task completes with Claude's answer", async () => {
    const h = await a2a({
      rules: [says("What is 2+2?", "4", "answer")],
    });
    const task = await h.send("What is 2+2?");

    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.status?.message).toBeUndefined();
    const result = task.history.find((m) => m.metadata?.kind === "result");
    expect(messageText(result)).toBe("4");
    const response = task.artifacts.find((a) => a.metadata?.kind === "assistant_text");
    expect(partsText(response?.parts ?? [])).toBe("4");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("streams Claude's text as several artifact chunks before the task completes", async () => {
    const answer = "The quick brown fox jumps over the lazy dog.";
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Tell me about the fox" },
          reply: reply(text(answer), { chunkSize: 8, chunkDelayMs: 15 }),
        },
      ],
    });
    const events = await h.stream("Tell me about the fox");
    const shape = describeStream(events);
    expect(shape[0]).toBe("task:submitted");
    expect(shape.at(-1)).toBe("status:completed");
    expect(shape.at(-2)).toBe("status:working:result");

    const chunks = artifactTexts(events);
    const streamed = chunks.filter((c) => !c.lastChunk);
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed[0]?.append).toBe(false);
    expect(streamed.slice(1).every((c) => c.append)).toBe(true);
    expect(streamed.map((c) => c.text).join("")).toBe(answer);
    // The closing chunk replaces the pieces with the whole text.
    expect(chunks.at(-1)).toEqual({ append: false, lastChunk: true, text: answer });
    // Every chunk arrived before the terminal status.
    const lastArtifact = shape.lastIndexOf("artifact:assistant_text");
    expect(lastArtifact).toBeLessThan(shape.indexOf("status:completed"));
  });

  it("publishes a tool_use status and a file artifact for a Write and an Edit", async () => {
    const h = await a2a();
    const file = join(h.bench.sandbox.cwd, "notes", "todo.md");
    h.bench.model.setRules([
      writes("Write the todo list", file, "- buy milk\n", "write"),
      {
        name: "edit",
        match: { toolResult: /created successfully/ },
        reply: reply(toolUse("Edit", { file_path: file, old_string: "milk", new_string: "bread" })),
      },
      afterTool(true, "Todo list written.", "done"),
    ]);
    const events = await h.stream("Write the todo list");
    const shape = describeStream(events);
    expect(shape.filter((s) => s === "status:working:tool_use")).toHaveLength(2);
    const toolCalls = events.flatMap((e) => {
      if (e.payload?.$case !== "statusUpdate") return [];
      const message = e.payload.value.status?.message;
      return message?.metadata?.kind === "tool_use"
        ? [{ toolName: message.metadata.toolName as string, text: messageText(message) }]
        : [];
    });
    expect(toolCalls).toEqual([
      { toolName: "Write", text: "Calling tool Write" },
      { toolName: "Edit", text: "Calling tool Edit" },
    ]);

    const fileEvents = events.flatMap((e) =>
      e.payload?.$case === "artifactUpdate" && e.payload.value.artifact?.metadata?.kind === "file"
        ? [e.payload.value.artifact]
        : [],
    );
    // Each is one file part: raw bytes, the media type of its extension, its file name.
    expect(
      fileEvents.map((a) => [a.artifactId, String(a.metadata?.operation), fileParts(a.parts)]),
    ).toEqual([
      ["file:notes/todo.md", "created", [["todo.md", "text/markdown", "- buy milk\n"]]],
      ["file:notes/todo.md", "modified", [["todo.md", "text/markdown", "- buy bread\n"]]],
    ]);
    expect(await readFile(file, "utf8")).toBe("- buy bread\n");

    // The stored task keeps one artifact per path, with the latest content.
    const taskId = events[0]?.payload?.$case === "task" ? events[0].payload.value.id : "";
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    const files = stored.artifacts.filter((a) => a.metadata?.kind === "file");
    expect(files).toHaveLength(1);
    expect(fileParts(files[0]?.parts ?? [])).toEqual([
      ["todo.md", "text/markdown", "- buy bread\n"],
    ]);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});

describe("A2A server: REST binding", () => {
  it("runs a task, streams one and reads it back over HTTP+JSON", async () => {
    const h = await a2a({
      rules: [says("Over REST", "Answered over REST."), says("Stream over REST", "Streamed.")],
    });
    const client = await new ClientFactory({
      ...ClientFactoryOptions.default,
      preferredTransports: ["HTTP+JSON"],
    }).createFromUrl(h.server.url);
    expect(client.transport.constructor.name).toMatch(/Rest/);

    const task = await sendForTask(client, userMessage("Over REST"));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(task)).toBe("Answered over REST.");
    const events = await collect(
      client.sendMessageStream(
        sendRequest(userMessage("Stream over REST", { contextId: task.contextId })),
      ),
    );
    expect(describeStream(events).at(-1)).toBe("status:completed");
    const stored = await client.getTask({ tenant: "", id: task.id, historyLength: undefined });
    expect(stored.id).toBe(task.id);
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
