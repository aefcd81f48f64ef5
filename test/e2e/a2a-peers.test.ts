/**
 * Delegation to peers (docs/peers.md, issue 35): server A's Claude calls server B through the
 * `a2a` MCP tools; both are real servers on 127.0.0.1 with the real runtime and a scripted model
 * each, and B is allowed on loopback by its `allowPrivateNetwork`.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { KIND } from "../../src/contract/kinds.js";
import { DELEGATED_TASKS_KEY, type DelegatedTaskRef } from "../../src/contract/delegation.js";
import { usageOf } from "../../src/contract/usage.js";
import {
  a2a,
  COLOUR_QUESTION,
  dataPart,
  idsOf,
  lastStatus,
  reply,
  resultOf,
  sendRequest,
  text,
  toolUse,
  userMessage,
  watch,
  type A2AHarness,
  type Rule,
} from "../support/harness/index.js";

const SEND = "mcp__a2a__send_message";

/** A's rules: a prompt makes Claude call send_message; the tool's result is relayed as the answer. */
const delegating = (prompt: string, input: Record<string, unknown>): Rule[] => [
  {
    name: "delegate",
    match: { lastUserText: prompt, toolResult: false },
    reply: reply(toolUse(SEND, input)),
  },
  {
    name: "relay",
    match: { toolResult: true },
    reply: (req) => reply(text(`A relays: ${req.toolResults.at(-1)?.content ?? ""}`)),
  },
];

const peerOf = (b: A2AHarness, extra: Record<string, unknown> = {}) => ({
  peers: { agents: { b: { url: b.server.url, allowPrivateNetwork: true, ...extra } } },
});

const statuses = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value] : []));

describe("delegation to a peer A2A agent", () => {
  it("A's Claude asks B: B's answer reaches A's, the tasks are linked both ways, B's progress and usage show on A", async () => {
    const b = await a2a({
      rules: [{ match: { lastUserText: "What is the answer?" }, reply: reply(text("B says 42")) }],
    });
    const a = await a2a({
      config: peerOf(b),
      rules: delegating("Ask B", { agent: "b", text: "What is the answer?" }),
    });
    const events = await a.stream("Ask B for the answer");
    const { taskId } = idsOf(events);
    const stored = await a.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(stored)).toContain("B says 42");

    // A's stream shows B's progress, by name.
    const delegated = statuses(events).filter(
      (s) => s.status?.message?.metadata?.kind === KIND.delegated,
    );
    expect(delegated.length).toBeGreaterThan(0);
    expect(delegated.map((s) => s.status?.message?.metadata?.agent)).toContain("b");
    expect(delegated.map((s) => s.status?.message?.metadata?.state)).toContain("completed");

    // Linked both ways: A's metadata names B's task; B's message references A's task.
    const linked = stored.metadata?.[DELEGATED_TASKS_KEY] as DelegatedTaskRef[];
    expect(linked).toHaveLength(1);
    const peerTask = await b.client.getTask({
      tenant: "",
      id: linked[0]!.taskId,
      historyLength: undefined,
    });
    expect(peerTask.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(peerTask.history[0]?.referenceTaskIds).toEqual([taskId]);
    expect(peerTask.history[0]?.metadata?.delegationDepth).toBe(1);

    // B's usage is A's `delegated` usage, beside A's own.
    const peerUsage = usageOf(peerTask.metadata);
    const usage = usageOf(stored.metadata);
    expect(peerUsage?.costUsd).toBeGreaterThan(0);
    expect(usage?.delegated?.costUsd).toBe(peerUsage?.costUsd);
    expect(usage?.delegated?.calls).toBe(1);
    expect(a.bench.model.unmatched).toEqual([]);
    expect(b.bench.model.unmatched).toEqual([]);
  });
});
