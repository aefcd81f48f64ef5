/**
 * A delegated call through the whole server minus HTTP (`createAgent` with a scripted runtime,
 * time by hand): the `a2a` MCP server a session gets, called over MCP as the runtime calls it,
 * against a scripted peer on a loopback listener (docs/peers.md).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import { TaskState } from "@a2a-js/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConfigInput } from "../../../src/config/schema.js";
import { DELEGATION_TEXT } from "../../../src/contract/delegation.js";
import { KIND } from "../../../src/contract/kinds.js";
import { textPart } from "../../../src/contract/messages.js";
import { allowedA2ATools } from "../../../src/app/session-factory.js";
import { A2A_TOOL_NAMES } from "../../../src/peers/tools.js";
import {
  agent,
  describeEvent,
  idsOf,
  sentStamp,
  type ScriptedAgent,
} from "../a2a/support/agent.js";
import { sdk } from "../claude/support/sdk-messages.js";
import {
  loopbackPeer,
  PEER_TASK,
  peerStatus,
  peerTask,
  reportedUsage,
  type LoopbackPeer,
} from "./support/loopback-peer.js";

const SEND = "mcp__a2a__send_message";

const peers: LoopbackPeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

/** Noon, UTC: the day of a daily budget does not turn during a test. */
const NOON = { now: () => Date.UTC(2025, 0, 31, 12, 0, 0) };

async function withPeer(config: ConfigInput = {}) {
  const peer = await loopbackPeer();
  peers.push(peer);
  const h = await agent({
    config: {
      ...config,
      peers: { agents: { b: { url: peer.url, allowPrivateNetwork: true } } },
    },
    clock: NOON,
  });
  return { peer, h };
}

/** An MCP client of the session's `a2a` server, as the runtime is. */
async function a2aClient(h: ScriptedAgent): Promise<Client> {
  const server = h.fake.query.options.mcpServers?.a2a as McpSdkServerConfigWithInstance;
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.instance.connect(theirs);
  const client = new Client({ name: "runtime", version: "1" });
  await client.connect(ours);
  return client;
}

/** Starts a task whose run calls send_message (tool use `tu1`); the call's result, pending. */
async function delegatingTask(h: ScriptedAgent, text = "Ask b") {
  const run = h.send(text);
  const stamp = await sentStamp(h, 0);
  const client = await a2aClient(h);
  await h.fake.query.feed(
    sdk.init(),
    sdk.toolUse("m1", "tu1", SEND, { agent: "b", text: "hi" }, { stamp }),
  );
  const result = client.callTool({
    name: "send_message",
    arguments: { agent: "b", text: "hi" },
    _meta: { "claudecode/toolUseId": "tu1" },
  }) as Promise<{ content: { text: string }[]; isError?: boolean }>;
  return { run, stamp, result };
}

describe("a delegated call in a task", () => {
  it("a peer question left unanswered until claude.inputTimeoutMs ends the call with a tool error; the peer's task is canceled and ours goes on", async () => {
    const { peer, h } = await withPeer({ claude: { inputTimeoutMs: 60_000 } });
    peer.streams.push([
      peerTask(),
      peerStatus(TaskState.TASK_STATE_INPUT_REQUIRED, [textPart("Which colour?")]),
    ]);
    const { run, stamp, result } = await delegatingTask(h);
    await run.until((e) => describeEvent(e) === "status:INPUT_REQUIRED:delegated_input");
    const { taskId } = idsOf(run);
    expect(h.agent.executor.phaseOf(taskId)?.name).toBe("parked");

    h.timers.fireAll();
    const { content, isError } = await result;
    expect(isError).toBe(true);
    expect(content[0]?.text).toBe(
      `b asked a question that was not answered: ${DELEGATION_TEXT.inputTimeout(60_000)}`,
    );
    // The peer's task was canceled; nothing was sent as an answer.
    expect(peer.calls.map((c) => c.method)).toEqual(["SendStreamingMessage", "CancelTask"]);
    expect(peer.calls[1]?.params).toMatchObject({ id: PEER_TASK.taskId });
    // Ours went back to work (its stream ended at input-required, as A2A streams do), and ends
    // as Claude decides.
    await vi.waitFor(() => expect(h.agent.executor.phaseOf(taskId)?.name).toBe("running"));
    await h.fake.query.feed(
      sdk.toolResult("tu1", content[0]!.text),
      sdk.result({ text: "b did not answer; going on", stamp }),
    );
    await vi.waitFor(async () =>
      expect((await h.stored(taskId))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED),
    );
    expect(run.describe().at(-1)).toBe(`status:INPUT_REQUIRED:${KIND.delegatedInput}`);
  });

  it("the peer's reported cost counts against the caller's daily budget: the task stops saying so, the next is refused", async () => {
    const { peer, h } = await withPeer({ limits: { default: { dailyBudgetUsd: 0.5 } } });
    peer.streams.push([
      peerTask(),
      peerStatus(TaskState.TASK_STATE_WORKING, [textPart("B's answer")], undefined, KIND.result),
      peerStatus(TaskState.TASK_STATE_COMPLETED, [], reportedUsage(0.6)),
    ]);
    const { run, stamp, result } = await delegatingTask(h);
    const answered = await result;
    expect(answered.isError).toBeUndefined();
    expect(answered.content[0]?.text).toContain("B's answer");
    await h.fake.query.feed(sdk.toolResult("tu1", answered.content[0]!.text), {
      ...sdk.result({ text: "b answered", stamp }),
      total_cost_usd: 0.01,
    });
    const { taskId } = idsOf(run);
    await vi.waitFor(() => expect(h.agent.executor.phaseOf(taskId)).toBeUndefined());
    const stored = await h.stored(taskId);
    expect(stored?.status?.message?.metadata?.kind).toBe("budget_reached");
    expect(stored?.status?.message?.parts[0]?.content?.value).toMatch(
      /^Daily budget reached: the anonymous caller \(unknown\) has spent \$0\.61 today of a daily budget of \$0\.50/,
    );

    // Own runs alone ($0.01) are far under it: the peer's $0.60 is what refuses the next task.
    const next = h.send("And again");
    expect(String(await next.done)).toMatch(
      /Caller limit reached \(dailyBudgetUsd\): the anonymous caller \(unknown\) has spent \$0\.61 today/,
    );
  });
});

describe("allowedA2ATools: the a2a tools allowed by default", () => {
  const all = ["mcp__a2a__list_agents", "mcp__a2a__send_message", "mcp__a2a__get_task"];
  it.each([
    ["no peer", 0, [], []],
    ["no peer, nothing disallowed", 0, undefined, []],
    ["peers", 2, [], all],
    ["peers, other tools disallowed", 1, ["Bash", "mcp__other__x"], all],
    ["send_message disallowed", 1, [SEND], ["mcp__a2a__list_agents", "mcp__a2a__get_task"]],
    ["the server disallowed", 1, ["mcp__a2a"], []],
    ["the server's tools disallowed", 1, ["mcp__a2a__*"], []],
  ] as const)("%s", (_what, peerCount, disallowed, allowed) => {
    expect(allowedA2ATools(peerCount, disallowed)).toEqual(allowed);
  });
});

describe("the a2a tools in a session", () => {
  it("are absent without peers", async () => {
    const h = await agent();
    h.send("hi");
    await sentStamp(h, 0);
    const options = h.fake.query.options;
    expect(options.mcpServers?.a2a).toBeUndefined();
    expect(options.allowedTools ?? []).not.toEqual(expect.arrayContaining([SEND]));
  });

  it("are served and pre-allowed with peers, beside claude.allowedTools", async () => {
    const { h } = await withPeer({ claude: { allowedTools: ["Read"] } });
    h.send("hi");
    await sentStamp(h, 0);
    const options = h.fake.query.options;
    expect(options.allowedTools).toEqual(["Read", ...A2A_TOOL_NAMES]);
    const tools = await (await a2aClient(h)).listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["list_agents", "send_message", "get_task"]);
  });

  it("leave out of allowedTools what claude.disallowedTools names, which goes to the runtime as is", async () => {
    const { h } = await withPeer({ claude: { disallowedTools: [SEND] } });
    h.send("hi");
    await sentStamp(h, 0);
    const options = h.fake.query.options;
    expect(options.disallowedTools).toEqual([SEND]);
    expect(options.allowedTools).toEqual(A2A_TOOL_NAMES.filter((t) => t !== SEND));
  });

  it("are not served at all when claude.disallowedTools takes the whole server", async () => {
    const { h } = await withPeer({ claude: { disallowedTools: ["mcp__a2a"] } });
    h.send("hi");
    await sentStamp(h, 0);
    expect(h.fake.query.options.mcpServers?.a2a).toBeUndefined();
    expect(h.fake.query.options.allowedTools ?? []).toEqual([]);
  });
});
