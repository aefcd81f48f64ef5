/**
 * `claude-a2a chat`'s control of a conversation (docs/control.md "Steer", "Rewind", "Fork"): in
 * a pseudo-terminal, against our server, the REAL Claude Code runtime and the scripted model. A
 * line typed while Claude runs a slow command is folded into the same turn of the same task;
 * `/rewind` takes the conversation Claude knows back to before a task, and `/fork` goes on in a
 * new context.
 *
 * Each test starts its own server: each counts the server's tasks, which the other's would change.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "@a2a-js/sdk";
import { a2a, EVERY_TASK, KEY, reply, terminal, text } from "../support/harness/index.js";
import {
  bodyHas,
  releaseBash,
  slowBashRules,
  STEER,
  STEERED_ANSWER,
  untilQueued,
} from "../support/harness/control.js";

const FIRST = "Remember the word alpha.";
const SECOND = "Remember the word beta.";
const AFTER_REWIND = "Which words do you know?";
const IN_FORK = "And now, in the fork?";

/** The task that `prompt` started (its history holds it; a task's history is its own messages). */
function taskOf(tasks: readonly Task[], prompt: string): Task {
  const found = tasks.find((task) => JSON.stringify(task.history).includes(prompt));
  if (found === undefined) throw new Error(`no task for ${prompt}`);
  return found;
}

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

describe("claude-a2a chat: /rewind and /fork (real runtime)", () => {
  it("after two turns, /rewind #2 makes Claude forget the second prompt; /fork goes on in a new context", async () => {
    const h = await a2a({ rules: [{ name: "any", match: {}, reply: reply(text("Noted.")) }] });
    const client = await terminal(h.server.url);
    const t = client.chat();
    let at = await t.waitFor("/rewind and /fork go back or branch");
    for (const prompt of [FIRST, SECOND]) {
      at = await t.waitFor(">", { from: at });
      t.write(`${prompt}${KEY.enter}`);
      at = await t.waitFor("[completed]", { from: at });
    }
    const before = (await h.client.listTasks(EVERY_TASK)).tasks;
    expect(before).toHaveLength(2);
    const [first, second] = [taskOf(before, FIRST), taskOf(before, SECOND)];

    // Back to just before the second task (#2): Claude knows the first prompt, not the second.
    at = await t.waitFor(">", { from: at });
    t.write(`/rewind #2 ${AFTER_REWIND}${KEY.enter}`);
    at = await t.waitFor("[completed]", { from: at });
    const rewound = h.bench.model.requests.at(-1)?.request;
    expect(rewound?.lastUserText).toContain(AFTER_REWIND);
    const rewoundBody = JSON.stringify(rewound?.body);
    expect(rewoundBody).toContain(FIRST);
    expect(rewoundBody).not.toContain(SECOND);
    const afterRewind = (await h.client.listTasks(EVERY_TASK)).tasks;
    expect(afterRewind).toHaveLength(3);
    const third = taskOf(afterRewind, AFTER_REWIND);
    expect(third.contextId).toBe(first.contextId);
    expect(third.metadata?.control).toMatchObject({ rewoundTo: second.id });

    // A fork of the last task: a new context whose Claude knows the rewound conversation.
    at = await t.waitFor(">", { from: at });
    t.write(`/fork ${IN_FORK}${KEY.enter}`);
    at = await t.waitFor("[completed]", { from: at });
    const forked = h.bench.model.requests.at(-1)?.request;
    expect(forked?.lastUserText).toContain(IN_FORK);
    const forkedBody = JSON.stringify(forked?.body);
    expect(forkedBody).toContain(FIRST);
    expect(forkedBody).toContain(AFTER_REWIND);
    expect(forkedBody).not.toContain(SECOND);
    const all = (await h.client.listTasks(EVERY_TASK)).tasks;
    expect(all).toHaveLength(4);
    const fork = taskOf(all, IN_FORK);
    expect(fork.contextId).not.toBe(first.contextId);
    expect(fork.metadata?.control).toMatchObject({ forkOf: third.id });
    expect(h.bench.model.unmatched).toEqual([]);

    t.write(`/exit${KEY.enter}`);
    expect(await t.exited).toBe(0);
  });
});
