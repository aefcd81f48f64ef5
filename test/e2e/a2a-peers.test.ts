/**
 * Delegation to peers (docs/peers.md, issue 35): server A's Claude calls server B through the
 * `a2a` MCP tools; both are real servers on 127.0.0.1 with the real runtime and a scripted model
 * each, and B is allowed on loopback by its `allowPrivateNetwork`.
 */
import { createServer, type Server } from "node:net";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ClientFactory } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/load.js";
import { start } from "../support/a2a/workspaces.js";
import { startTestBench, TEST_MODEL } from "../support/bench.js";
import { TaskState, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import { KIND } from "../../src/contract/kinds.js";
import { DELEGATED_TASKS_KEY, type DelegatedTaskRef } from "../../src/contract/delegation.js";
import { usageOf } from "../../src/contract/usage.js";
import {
  a2a,
  afterTool,
  asks,
  COLOUR_QUESTION,
  dataPart,
  delegating,
  describeStream,
  freePort,
  idsOf,
  lastStatus,
  partsText,
  perTest,
  reply,
  resultOf,
  says,
  SEND_MESSAGE_TOOL,
  sendRequest,
  temp,
  text,
  toolUse,
  userMessage,
  writes,
  peerPair,
  peerOf,
  type A2AHarness,
} from "../support/harness/index.js";

const statuses = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value] : []));

/** One event as docs/peers.md's recorded example shows it: its `describeStream` line, its text. */
interface Row {
  readonly event: string;
  readonly text: string;
}

const textOf = (e: StreamResponse): string => {
  const p = e.payload;
  if (p?.$case === "artifactUpdate") return partsText(p.value.artifact?.parts);
  if (p?.$case === "task" || p?.$case === "statusUpdate")
    return partsText(p.value.status?.message?.parts);
  return "";
};

/** A stream's rows; consecutive chunks of one artifact as one (their count is not the point). */
const rowsOf = (events: readonly StreamResponse[]): Row[] =>
  describeStream(events)
    .map((event, i) => ({ event, text: textOf(events[i]!) }))
    .filter((r, i, all) => !(r.event.startsWith("artifact:") && all[i - 1]?.event === r.event));

/**
 * The event tables of docs/peers.md's recorded example: `n  state  kind  text`, one line a row, so
 * a space there is any white space, and `…` anything elided.
 */
async function recordedExample(): Promise<{ event: string; text: RegExp }[][]> {
  const doc = await readFile(new URL("../../docs/peers.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("## A recorded example"));
  const tables = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === "")
    .map((m) => m[2]!);
  const pattern = (t: string) =>
    new RegExp(
      `^${t
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace(/…/g, "[\\s\\S]*")
        .replace(/ /g, "\\s+")}$`,
    );
  return tables.map((table) =>
    table
      .trimEnd()
      .split("\n")
      .map((line) => {
        const [, state = "", kind = "", text = ""] = line.split(/\s{2,}/);
        const event =
          state === "(artifact)"
            ? `artifact:${kind}`
            : kind === "(the task)"
              ? `task:${state}`
              : `status:${state}${kind ? `:${kind}` : ""}`;
        return { event, text: pattern(text) };
      })
      .filter((r, i, all) => !(r.event.startsWith("artifact:") && all[i - 1]?.event === r.event)),
  );
}

const expectRows = (got: Row[], doc: { event: string; text: RegExp }[]) => {
  expect(got.map((r) => r.event)).toEqual(doc.map((r) => r.event));
  got.forEach((r, i) => expect(r.text).toMatch(doc[i]!.text));
};

/** A's caller answers what B asked: A's task completes; the stream, and the task A stored. */
async function answered(
  a: A2AHarness,
  asked: readonly StreamResponse[],
  answer: Part[] | string,
): Promise<{ done: StreamResponse[]; stored: Task }> {
  const done = await a.stream(answer, idsOf(asked));
  expect(lastStatus(done).state).toBe(TaskState.TASK_STATE_COMPLETED);
  const id = idsOf(asked).taskId;
  return { done, stored: await a.client.getTask({ tenant: "", id, historyLength: undefined }) };
}

describe("delegation to a peer A2A agent", () => {
  it("A's Claude asks B: B's answer reaches A's, the tasks are linked both ways, B's progress and usage show on A", async () => {
    const { a, b } = await peerPair(
      { rules: [says("What is the answer?", "B says 42")] },
      "Ask B",
      "What is the answer?",
    );
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
    const said = delegated.map((s) => s.status?.message?.metadata as Record<string, unknown>);
    expect(said.map((m) => m.agent)).toContain("b");
    expect(said.map((m) => m.state)).toContain("completed");

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

  it("B's question reaches A's caller as delegated_input; the answer goes back to B and both complete", async () => {
    const { a, b } = await peerPair(
      { rules: asks("Pick a colour", { answer: /blue/, then: "B picked blue" }) },
      "Ask B to choose",
      "Pick a colour",
    );
    const asked = await a.stream("Ask B to choose");
    const prompt = lastStatus(asked);
    expect(prompt.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(prompt.kind).toBe(KIND.delegatedInput);
    expect(prompt.text).toBe(`Peer b asks: ${COLOUR_QUESTION.question}`);
    expect(prompt.data?.agent).toBe("b");
    const peerData = prompt.data?.data as { kind: string; questions: unknown[] }[];
    expect(peerData[0]?.kind).toBe(KIND.askUserQuestion);
    expect(peerData[0]?.questions).toEqual([COLOUR_QUESTION]);

    const answer = dataPart({ answers: { [COLOUR_QUESTION.question]: "blue" } });
    const { done, stored } = await answered(a, asked, [answer]);
    expect(resultOf(stored)).toContain("B picked blue");
    const peerId = (stored.metadata?.[DELEGATED_TASKS_KEY] as DelegatedTaskRef[])[0]!.taskId;
    const peerTask = await b.client.getTask({ tenant: "", id: peerId, historyLength: undefined });
    expect(peerTask.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The answer is in B's history, as A's caller gave it.
    const answers = peerTask.history.flatMap((m) =>
      m.parts.flatMap((p) => (p.content?.$case === "data" ? [p.content.value as unknown] : [])),
    );
    expect(answers).toContainEqual({ answers: { [COLOUR_QUESTION.question]: "blue" } });

    // docs/peers.md's recorded example is this run's stream.
    const [before, after] = await recordedExample();
    expectRows(rowsOf(asked), before!);
    expectRows(rowsOf(done), after!);
  });

  it("B's permission request reaches A's caller; a deny reaches B and B's file is not written", async () => {
    const outside = await temp("peers-outside-");
    const target = join(outside.path, "denied.txt");
    const { a } = await peerPair(
      {
        rules: [
          writes("Write the file", target, "no\n"),
          afterTool(true, "B was not allowed to write"),
        ],
      },
      "Ask B to write",
      "Write the file",
    );
    const asked = await a.stream("Ask B to write");
    const prompt = lastStatus(asked);
    expect(prompt.kind).toBe(KIND.delegatedInput);
    const peerData = prompt.data?.data as { kind: string; toolName: string }[];
    expect(peerData[0]).toMatchObject({ kind: KIND.permissionRequest, toolName: "Write" });

    const { stored } = await answered(a, asked, "No, do not write it.");
    expect(resultOf(stored)).toContain("B was not allowed to write");
    expect(existsSync(target)).toBe(false);
  });

  it("a permissions.ask rule of A's Claude Code settings makes send_message a permission prompt to A's caller; denied, B is never asked", async () => {
    const b = await a2a({ rules: [says("What is the answer?", "B says 42")] });
    const a = await a2a({
      config: { ...peerOf(b), claude: { settingSources: ["project"] } },
      rules: delegating("Ask B", { agent: "b", text: "What is the answer?" }),
      beforeStart: async (cwd) => {
        await mkdir(join(cwd, ".claude"), { recursive: true });
        const ask = { permissions: { ask: [SEND_MESSAGE_TOOL] } };
        await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify(ask));
      },
    });
    const asked = await a.stream("Ask B");
    const prompt = lastStatus(asked);
    expect(prompt.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(prompt.kind).toBe(KIND.permissionRequest);
    expect(prompt.data?.toolName).toBe(SEND_MESSAGE_TOOL);
    expect(b.bench.model.requests).toHaveLength(0);

    const deny = dataPart({ kind: "permission_response", decision: "deny", reason: "not now" });
    const { stored } = await answered(a, asked, [deny]);
    expect(resultOf(stored)).toContain("not now");
    expect(stored.metadata?.[DELEGATED_TASKS_KEY]).toBeUndefined();
    expect(b.bench.model.requests).toHaveLength(0);
  });

  it("canceling A while B works cancels B's task", async () => {
    const { a, b } = await peerPair(
      {
        rules: [
          {
            match: { lastUserText: "Work for a long time" },
            reply: reply(text("Working ".repeat(200)), { chunkSize: 4, chunkDelayMs: 50 }),
          },
        ],
      },
      "Ask B to work",
      "Work for a long time",
    );
    const stream = a.watch("Ask B to work");
    const head = await stream.first(() => true);
    const taskId = head.payload?.$case === "task" ? head.payload.value.id : "";
    const working = await stream.first(
      (e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.message?.metadata?.kind === KIND.delegated,
    );
    const peerId =
      working.payload?.$case === "statusUpdate"
        ? (working.payload.value.status?.message?.metadata?.taskId as string)
        : "";
    await a.client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
    await stream.done;
    await expect
      .poll(
        async () =>
          (await b.client.getTask({ tenant: "", id: peerId, historyLength: undefined })).status
            ?.state,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("a peer that is not configured is never reached, not even by its URL; a peer that is down gives a tool error and A still completes", async () => {
    let connections = 0;
    const listener: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    perTest({ close: () => new Promise<void>((resolve) => listener.close(() => resolve())) });
    const address = listener.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const down = await freePort();
    const a = await a2a({
      config: {
        peers: {
          retries: 0,
          agents: { down: { url: `http://127.0.0.1:${down}/`, allowPrivateNetwork: true } },
        },
      },
      rules: [
        ...delegating("Ask by URL", { agent: `http://127.0.0.1:${port}/`, text: "hello" }),
        {
          match: { lastUserText: "Ask the down one", toolResult: false },
          reply: reply(toolUse(SEND_MESSAGE_TOOL, { agent: "down", text: "hello" })),
        },
      ],
    });
    const byUrl = await a.send("Ask by URL");
    expect(byUrl.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(byUrl)).toContain("is not a configured peer (configured: down)");
    expect(connections).toBe(0);

    const toDown = await a.send("Ask the down one");
    expect(toDown.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(toDown)).toContain("The call to down failed");
  });

  it("workspaces: a sibling it lists is called, one it does not list is not, and A→B→A stops at peers.maxDepth 1", async () => {
    const bench = perTest(await startTestBench([]));
    const dirs = Object.fromEntries(["a", "b", "c"].map((n) => [n, join(bench.sandbox.root, n)]));
    await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
    const config = resolveConfig(
      {
        claude: { model: TEST_MODEL, settingSources: [], permissionMode: "acceptEdits" },
        peers: { maxDepth: 1 },
        workspaces: {
          a: { cwd: dirs.a!, peers: { workspaces: ["b"] } },
          b: { cwd: dirs.b!, peers: { workspaces: ["a"] } },
          c: { cwd: dirs.c! },
        },
      },
      {
        file: "<test config>",
        startDir: bench.sandbox.root,
        overrides: { port: await freePort(), cwd: bench.sandbox.cwd },
      },
    );
    bench.model.setRules([
      ...delegating("Loop through b", { agent: "b", text: "Call a back" }).slice(0, 1),
      {
        match: { lastUserText: "Call a back", toolResult: false },
        reply: reply(toolUse(SEND_MESSAGE_TOOL, { agent: "a", text: "Back to a" })),
      },
      {
        match: { lastUserText: "Ask c", toolResult: false },
        reply: reply(toolUse(SEND_MESSAGE_TOOL, { agent: "c", text: "hello c" })),
      },
      ...delegating("never", {}).slice(1),
    ]);
    const server = perTest(await start(bench, config));
    const a = await new ClientFactory().createFromUrl(`${server.url}/agents/a/`);
    const send = async (prompt: string) =>
      a.sendMessage(sendRequest(userMessage(prompt))).then((r) => {
        if (!("id" in r)) throw new Error("expected a task");
        return r;
      });

    // a lists b; b's call back to a would be depth 2: refused by b, which says so to a.
    const loop = await send("Loop through b");
    expect(loop.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(loop)).toContain("b answered");
    expect(resultOf(loop)).toContain("beyond peers.maxDepth (1)");
    // a does not list c.
    const toC = await send("Ask c");
    expect(resultOf(toC)).toContain('"c" is not a configured peer (configured: b)');
    expect(bench.model.unmatched).toEqual([]);
  });
});
