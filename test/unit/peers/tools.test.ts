import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AgentCard,
  Part as PartCodec,
  StreamResponse,
  Task,
  TaskState,
  type Part,
} from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { DelegatingTask, PeerPrompt } from "../../../src/a2a/task/task-delegation.js";
import type { DelegatedTaskRef } from "../../../src/contract/delegation.js";
import { agentMessage, rawPart, textPart } from "../../../src/contract/messages.js";
import type { UsageFigures } from "../../../src/contract/usage.js";
import { Peer } from "../../../src/peers/peer-client.js";
import { a2aTools } from "../../../src/peers/tools.js";
import { PEER_TASK, peerStatus, peerTask, reportedUsage } from "./support/loopback-peer.js";

/**
 * The `a2a` tools' handlers, called as the runtime calls them (the tool use id in `_meta`),
 * against a peer that is an injected fetch: its card, and a JSON-RPC stream of scripted events.
 */

const PEER_URL = "https://peer.example";
const card = AgentCard.fromJSON({
  name: "Peer B",
  description: "Reviews diffs",
  version: "1.0.0",
  supportedInterfaces: [
    { url: `${PEER_URL}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "review", name: "review", description: "Reviews a diff", tags: ["code"] }],
});

// The peer's task and its events, as the loopback peer of the other delegation tests sends them.
const ref = PEER_TASK;
const status = (state: TaskState, parts: Part[] = [], kind?: string, metadata?: object) =>
  peerStatus(state, parts, metadata, kind);

const USAGE = reportedUsage(0.25);

const ANSWER: StreamResponse[] = [
  peerTask(),
  status(TaskState.TASK_STATE_WORKING),
  {
    payload: {
      $case: "artifactUpdate",
      value: {
        ...ref,
        artifact: {
          artifactId: "file:review.md",
          name: "review.md",
          description: "",
          parts: [rawPart(Buffer.from("LGTM\n"), "text/markdown", "review.md")],
          metadata: { kind: "file" },
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      },
    },
  },
  status(TaskState.TASK_STATE_WORKING, [textPart("Looks good to me.")], "result"),
  status(TaskState.TASK_STATE_COMPLETED, [], undefined, USAGE),
];

interface Sent {
  method: string;
  params: {
    id?: string;
    message?: {
      metadata?: Record<string, unknown>;
      referenceTaskIds?: string[];
      contextId?: string;
      taskId?: string;
      parts?: unknown[];
    };
  };
}

/** What the peer's GetTask answers: its task, completed, with a status text. */
const FOUND = Task.toJSON({
  id: ref.taskId,
  contextId: ref.contextId,
  status: {
    state: TaskState.TASK_STATE_COMPLETED,
    message: agentMessage(ref, [textPart("Done reviewing.")]),
    timestamp: undefined,
  },
  artifacts: [],
  history: [],
  metadata: undefined,
});

function fakePeer(events: readonly StreamResponse[]) {
  const sent: Sent[] = [];
  let cards = 0;
  const fetchImpl = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith("agent-card.json")) {
      cards++;
      return Promise.resolve(Response.json(AgentCard.toJSON(card)));
    }
    const body = JSON.parse(init?.body as string) as Sent & { id: number };
    sent.push(body);
    if (body.method === "GetTask") {
      return Promise.resolve(Response.json({ jsonrpc: "2.0", id: body.id, result: FOUND }));
    }
    const frames = events.map(
      (e) =>
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: StreamResponse.toJSON(e) })}\n\n`,
    );
    const headers = { "content-type": "text/event-stream" };
    return Promise.resolve(new Response(frames.join(""), { headers }));
  }) as typeof fetch;
  return { sent, fetchImpl, cards: () => cards };
}

function fakeTask(depth = 0) {
  const progress: [DelegatedTaskRef, string][] = [];
  const usage: UsageFigures[] = [];
  const asked: PeerPrompt[] = [];
  const task: DelegatingTask = {
    ref: { taskId: "ours-1", contextId: "our-ctx" },
    depth,
    traceHeaders: () => ({
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    }),
    begin: () => ({ signal: new AbortController().signal, done: () => undefined }),
    progress: (peer, state) => progress.push([peer, state]),
    ask: (prompt) => {
      asked.push(prompt);
      return Promise.resolve({ kind: "refused", reason: "no" });
    },
    addUsage: (f) => usage.push(f),
  };
  return { task, progress, usage, asked };
}

let cwd = "";
afterEach(async () => {
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

async function tools(events: readonly StreamResponse[], depth = 0) {
  cwd = await mkdtemp(join(tmpdir(), "a2a-tools-"));
  const peer = fakePeer(events);
  const t = fakeTask(depth);
  const network = {
    fetch: peer.fetchImpl,
    resolve: () => Promise.resolve([{ address: "93.184.216.34", family: 4 as const }]),
  };
  const bounds = { requestTimeoutMs: 10_000, retries: 0 };
  const b = new Peer(
    "b",
    { url: PEER_URL, auth: "none", allowPrivateNetwork: false },
    bounds,
    network,
  );
  const list = a2aTools({
    peers: new Map([["b", b]]),
    config: { maxDepth: 2, callTimeoutMs: 60_000, requestTimeoutMs: 10_000 },
    cwd,
    taskOf: (toolUseId) => Promise.resolve(toolUseId === "tu1" ? t.task : undefined),
  });
  const call = (name: string, args: Record<string, unknown>, toolUseId = "tu1") => {
    const found = list.find((x) => x.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found.handler(args as never, { _meta: { "claudecode/toolUseId": toolUseId } });
  };
  return { call, peer, ...t };
}

const textOf = (r: { content: unknown[] }) =>
  (r.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

describe("the a2a tools", () => {
  it("list_agents gives each peer's name, description and skills from its card", async () => {
    const t = await tools([]);
    const result = await t.call("list_agents", {});
    expect(textOf(result)).toBe("- b: Reviews diffs\n  skills: review: Reviews a diff");
    expect(result.isError).toBeUndefined();
  });

  it("send_message streams the peer's answer: its text, its files saved, its progress, its usage, the depth and our task sent along", async () => {
    const t = await tools(ANSWER, 1);
    const result = await t.call("send_message", { agent: "b", text: "Review this" });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain("b answered (task peer-1, contextId peer-ctx");
    expect(textOf(result)).toContain("Looks good to me.");
    expect(textOf(result)).toContain("Files saved: .a2a/peers/b/peer-1/review.md");
    expect(await readFile(join(cwd, ".a2a/peers/b/peer-1/review.md"), "utf8")).toBe("LGTM\n");
    expect(t.progress.map(([, state]) => state)).toEqual(["submitted", "working", "completed"]);
    expect(t.progress[0]?.[0]).toEqual({ agent: "b", taskId: "peer-1", contextId: "peer-ctx" });
    expect(t.usage).toEqual([
      {
        costUsd: 0.25,
        inputTokens: 10,
        outputTokens: 20,
        cacheReadTokens: 0,
        cacheCreationTokens: 0,
      },
    ]);
    expect(t.peer.sent).toHaveLength(1);
    expect(t.peer.sent[0]?.method).toBe("SendStreamingMessage");
    expect(t.peer.sent[0]?.params.message?.metadata).toEqual({ delegationDepth: 2 });
    expect(t.peer.sent[0]?.params.message?.referenceTaskIds).toEqual(["ours-1"]);
  });

  it.each([
    ["a peer that is not configured", { agent: "c", text: "hi" }, 0, "is not a configured peer"],
    [
      "a URL instead of a name",
      { agent: `${PEER_URL}/`, text: "hi" },
      0,
      "is not a configured peer",
    ],
    ["a call beyond peers.maxDepth", { agent: "b", text: "hi" }, 2, "beyond peers.maxDepth (2)"],
    [
      "a file outside the working directory",
      { agent: "b", text: "hi", files: ["../x"] },
      0,
      "outside the working directory",
    ],
  ])("send_message refuses %s, and sends nothing", async (_what, args, depth, error) => {
    const t = await tools(ANSWER, depth);
    const result = await t.call("send_message", args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(error);
    expect(t.peer.sent).toEqual([]);
  });

  it("a call no task owns sends nothing", async () => {
    const t = await tools(ANSWER);
    const result = await t.call("send_message", { agent: "b", text: "hi" }, "tu-unknown");
    expect(result.isError).toBe(true);
    expect(t.peer.sent).toEqual([]);
    expect(t.peer.cards()).toBe(0);
  });

  it("a peer task that fails is a tool error with its text", async () => {
    const t = await tools([
      ANSWER[0]!,
      status(TaskState.TASK_STATE_FAILED, [textPart("The diff is too large.")]),
    ]);
    const result = await t.call("send_message", { agent: "b", text: "Review this" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("b's task peer-1 ended failed: The diff is too large.");
  });

  it("send_message sends a file of the working directory as a raw part beside the text", async () => {
    const t = await tools(ANSWER);
    await writeFile(join(cwd, "diff.patch"), "--- a\n+++ b\n");
    const result = await t.call("send_message", {
      agent: "b",
      text: "Review this",
      files: ["diff.patch"],
    });
    expect(result.isError).toBeUndefined();
    const parts = (t.peer.sent[0]?.params.message?.parts ?? []).map((p) => PartCodec.fromJSON(p));
    expect(parts).toHaveLength(2);
    expect(parts[0]?.content).toEqual({ $case: "text", value: "Review this" });
    expect(parts[1]?.filename).toBe("diff.patch");
    expect(parts[1]?.content?.$case).toBe("raw");
    expect(Buffer.from(parts[1]?.content?.value as Uint8Array).toString()).toBe("--- a\n+++ b\n");
  });

  it("send_message refuses a symlink out of the working directory before reaching the peer", async () => {
    const t = await tools(ANSWER);
    const outside = await mkdtemp(join(tmpdir(), "a2a-outside-"));
    try {
      await writeFile(join(outside, "secret"), "secret");
      await symlink(join(outside, "secret"), join(cwd, "notes.txt"));
      const result = await t.call("send_message", { agent: "b", text: "hi", files: ["notes.txt"] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("notes.txt is a symbolic link");
      expect(textOf(result)).toContain("outside the working directory");
      expect(t.peer.sent).toEqual([]);
      expect(t.peer.cards()).toBe(0);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("send_message gives the answer but no file when .a2a/peers is a planted symlink, and counts the usage once", async () => {
    const t = await tools(ANSWER);
    const outside = await mkdtemp(join(tmpdir(), "a2a-outside-"));
    try {
      await mkdir(join(cwd, ".a2a"));
      await symlink(outside, join(cwd, ".a2a", "peers"));
      const result = await t.call("send_message", { agent: "b", text: "Review this" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("Looks good to me.");
      expect(textOf(result)).toContain(
        "Its files were not saved: Refused to save the peer's files: .a2a/peers in the working directory is a symbolic link",
      );
      expect(await readdir(outside)).toEqual([]);
      expect(t.usage).toHaveLength(1);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("send_message with a contextId continues that conversation: the message names the context, no task", async () => {
    const t = await tools(ANSWER);
    const first = await t.call("send_message", { agent: "b", text: "Review this" });
    expect(textOf(first)).toContain("contextId peer-ctx");
    await t.call("send_message", { agent: "b", text: "And this?", contextId: "peer-ctx" });
    expect(t.peer.sent.map((s) => s.params.message?.contextId ?? "")).toEqual(["", "peer-ctx"]);
    expect(t.peer.sent.map((s) => s.params.message?.taskId ?? "")).toEqual(["", ""]);
    // The card is read once, the client kept for the next call.
    expect(t.peer.cards()).toBe(1);
  });

  it("get_task reads a peer task's state and status text", async () => {
    const t = await tools([]);
    const result = await t.call("get_task", { agent: "b", taskId: "peer-1" });
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({
      taskId: "peer-1",
      contextId: "peer-ctx",
      state: "completed",
      message: "Done reviewing.",
    });
    expect(t.peer.sent.map((s) => [s.method, s.params.id])).toEqual([["GetTask", "peer-1"]]);
  });

  it.each([
    [
      "a peer that is not configured",
      { agent: "c", taskId: "peer-1" },
      "tu1",
      "not a configured peer",
    ],
    ["a call no task owns", { agent: "b", taskId: "peer-1" }, "tu-unknown", "belongs to no task"],
  ])("get_task refuses %s, and asks nothing", async (_what, args, toolUseId, error) => {
    const t = await tools([]);
    const result = await t.call("get_task", args, toolUseId);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(error);
    expect(t.peer.sent).toEqual([]);
  });
});
