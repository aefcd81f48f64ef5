/**
 * `claude-a2a chat` steering a working task (docs/control.md "Steer"): in a pseudo-terminal,
 * against our server, the REAL Claude Code runtime and the scripted model, a line typed while
 * Claude runs a slow command is folded into the same turn of the same task.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { a2a, EVERY_TASK, KEY, reply, terminal, text, toolUse } from "../support/harness/index.js";
import { bodyHas } from "../support/harness/control.js";

const STEER = "Also update the changelog.";
/** A Bash command that runs until the test creates `release` (no timing). */
const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done; echo bash-done > finished";

/** The runtime's frame saying it read a user message and queued it for the running turn. */
const isQueuedCommand = (frame: unknown) => {
  const f = frame as { type?: string; state?: string };
  return f.type === "command_lifecycle" && f.state === "queued";
};

/** Polls a condition the runtime makes true (bounded: the test's own timeout). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("claude-a2a chat: typing during a turn steers it (real runtime)", () => {
  it("a line typed while Claude works reaches the same turn, and the answer reflects it", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] } },
      rules: [
        {
          name: "steered answer",
          match: { when: bodyHas(STEER) },
          reply: reply(text("Built it, and updated the changelog as you asked.")),
        },
        {
          name: "build",
          match: { lastUserText: "Build the release", toolResult: false },
          reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
        },
        { name: "built", match: { toolResult: true }, reply: reply(text("Built it.")) },
      ],
    });
    const client = await terminal(h.server.url);
    const t = client.chat();
    let at = await t.waitFor("Type while Claude works to steer it");
    at = await t.waitFor(">", { from: at });
    t.write(`Build the release${KEY.enter}`);
    at = await t.waitFor("Calling tool Bash", { from: at });

    t.write(`${STEER}${KEY.enter}`);
    at = await t.waitFor(`↳ steering: ${STEER}`, { from: at });
    await waitFor(() => h.frames.some(isQueuedCommand));
    await writeFile(join(h.bench.sandbox.cwd, "release"), "");

    at = await t.waitFor("Built it, and updated the changelog as you asked.", { from: at });
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
