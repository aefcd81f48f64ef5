/**
 * `claude-a2a chat` steering a working task (docs/control.md "Steer"): in a pseudo-terminal,
 * against our server, the REAL Claude Code runtime and the scripted model, a line typed while
 * Claude runs a slow command is folded into the same turn of the same task.
 */
import { describe, expect, it } from "vitest";
import { a2a, EVERY_TASK, KEY, terminal } from "../support/harness/index.js";
import {
  bodyHas,
  releaseBash,
  slowBashRules,
  STEER,
  STEERED_ANSWER,
  untilQueued,
} from "../support/harness/control.js";

describe("claude-a2a chat: typing during a turn steers it (real runtime)", () => {
  it("a line typed while Claude works reaches the same turn, and the answer reflects it", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] } },
      rules: slowBashRules(),
    });
    const client = await terminal(h.server.url);
    const t = client.chat();
    let at = await t.waitFor("Type while Claude works to steer it");
    at = await t.waitFor(">", { from: at });
    t.write(`Build the release${KEY.enter}`);
    at = await t.waitFor("Calling tool Bash", { from: at });

    t.write(`${STEER}${KEY.enter}`);
    at = await t.waitFor(`↳ steering: ${STEER}`, { from: at });
    await untilQueued(h);
    await releaseBash(h);

    at = await t.waitFor(STEERED_ANSWER, { from: at });
    await t.waitFor("[completed]", { from: at });
    // The stream's `steered`: Claude took the typed line.
    expect(t.text()).toContain(`↳ Claude took: ${STEER}`);
    const afterTool = h.bench.model.requests.find((r) => r.request.toolResults.length > 0);
    expect(bodyHas(STEER)(afterTool?.request ?? { body: "" })).toBe(true);
    // One task: the typed line steered it, it started no other.
    const tasks = (await h.client.listTasks(EVERY_TASK)).tasks;
    expect(tasks).toHaveLength(1);
    expect(h.bench.model.unmatched).toEqual([]);

    // Back at the prompt, a line is a new message again.
    t.write(`/exit${KEY.enter}`);
    expect(await t.exited).toBe(0);
  });
});
