/**
 * The terminal client and a delegated call (issue 35, docs/peers.md, docs/client.md): `claude-a2a
 * chat` against A, whose Claude asks peer B; B's question reaches the chat named as B's and is
 * answered there with the arrow keys like A's own, and the answer goes back to B. `claude-a2a
 * send` to A ends with A's whole cost and B's part of it named as B's (docs/peers.md "Cost rolls
 * up"); `task ID` has B's line. Both servers are real, with the real runtime and a scripted model
 * each.
 *
 * Each test starts its own pair: each counts A's tasks and sums A's cost, which the other's would
 * change.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { DELEGATED_TASKS_KEY, type DelegatedTaskRef } from "../../src/contract/delegation.js";
import { formatUsd, usageOf } from "../../src/contract/usage.js";
import {
  a2a,
  asks,
  COLOUR_QUESTION,
  KEY,
  listRequest,
  peerOf,
  reply,
  terminal,
  text,
  toolUse,
  peerPair,
} from "../support/harness/index.js";

describe("claude-a2a chat and a delegated call", () => {
  it("B's question shows with B's name, is answered with the arrow keys, and B gets the answer", async () => {
    const { a, b } = await peerPair(
      {
        rules: asks("Pick a colour", { answer: /blue/, then: "B picked blue", name: "b-answered" }),
      },
      "Ask B to choose",
      "Pick a colour",
    );
    const cli = await terminal(a.server.url);
    const t = cli.chat();
    let at = await t.waitFor("Ctrl-C during a turn cancels it");
    t.write("Ask B to choose\r");
    // The `delegated` progress names B and says what it asks, just before the question itself.
    at = await t.waitFor(`Peer b: input-required: ${COLOUR_QUESTION.question}`, { from: at });
    at = await t.waitFor("[Colour] Which colour do you prefer?", { from: at });
    await t.waitFor("Other (type an answer)", { from: at });
    t.write(KEY.down); // red → blue
    await t.waitFor("Choose blue", { from: at });
    t.write(KEY.enter);
    at = await t.waitFor("Peer b: completed", { from: at });
    at = await t.waitFor("B picked blue", { from: at });
    await t.waitFor("[completed]", { from: at });
    t.write("/exit\r");
    expect(await t.exited).toBe(0);

    const answered = b.bench.model.requests.find((r) => r.rule === "b-answered")?.request;
    expect(answered?.toolResults[0]?.content).toContain('"Which colour do you prefer?"="blue"');
    const tasks = await a.client.listTasks({ ...listRequest(""), pageSize: 10 });
    expect(tasks.tasks).toHaveLength(1);
    const [task] = tasks.tasks;
    expect(task?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((task?.metadata?.[DELEGATED_TASKS_KEY] as DelegatedTaskRef[])[0]?.agent).toBe("b");
  });
});

describe("claude-a2a send and a delegated call's cost", () => {
  it("the closing line sums A's runs and B's reported usage, and names B", async () => {
    const b = await a2a({
      rules: [{ match: { lastUserText: "Check the diff" }, reply: reply(text("Looks fine")) }],
    });
    const a = await a2a({
      config: peerOf(b),
      rules: [
        {
          match: { lastUserText: "Ask B to review", toolResult: false },
          reply: reply(toolUse("mcp__a2a__send_message", { agent: "b", text: "Check the diff" })),
        },
        { match: { toolResult: true }, reply: reply(text("B says it looks fine")) },
      ],
    });
    const cli = await terminal(a.server.url);
    const r = await cli.run(["send", "Ask B to review"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);

    const tasks = await a.client.listTasks({ ...listRequest(""), pageSize: 10 });
    const [task] = tasks.tasks;
    const usage = usageOf(task?.metadata);
    const delegated = usage?.delegated;
    expect(delegated?.calls).toBe(1);
    expect(delegated!.costUsd).toBeGreaterThan(0);
    const whole = formatUsd(usage!.costUsd + delegated!.costUsd);
    const tokens = `${usage!.inputTokens + delegated!.inputTokens} in, ${usage!.outputTokens + delegated!.outputTokens} out tokens`;
    expect(r.out.split("\n").at(-2)).toBe(
      `[completed] ${whole} · ${tokens} · incl. ${formatUsd(delegated!.costUsd)} delegated to b`,
    );

    const detail = await cli.run(["task", task!.id]);
    expect(detail.code).toBe(0);
    expect(detail.out).toContain(`Cost     ${whole}  (1 run,`);
    expect(detail.out).toContain(`delegated to b: ${formatUsd(delegated!.costUsd)}, `);
    expect(detail.out).toContain(" (1 call)\n");
  });
});
