/**
 * What a delegated call cost, in the terminal client (issue 35, docs/client.md, docs/peers.md
 * "Cost rolls up"): `claude-a2a send` to A, whose Claude asks peer B, ends with A's whole cost
 * and B's part of it named as B's; `task ID` has B's line. Both servers are real, with the real
 * runtime and a scripted model each.
 */
import { describe, expect, it } from "vitest";
import { formatUsd, usageOf } from "../../src/contract/usage.js";
import { a2a, reply, terminal, text, toolUse } from "../support/harness/index.js";

describe("claude-a2a send and a delegated call's cost", () => {
  it("the closing line sums A's runs and B's reported usage, and names B", async () => {
    const b = await a2a({
      rules: [{ match: { lastUserText: "Check the diff" }, reply: reply(text("Looks fine")) }],
    });
    const a = await a2a({
      config: { peers: { agents: { b: { url: b.server.url, allowPrivateNetwork: true } } } },
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

    const tasks = await a.client.listTasks({
      tenant: "",
      contextId: "",
      status: 0,
      pageSize: 10,
      pageToken: "",
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
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
