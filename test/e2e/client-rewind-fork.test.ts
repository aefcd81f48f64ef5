/**
 * `claude-a2a chat`'s `/rewind` and `/fork` (docs/control.md "Rewind", "Fork"): in a
 * pseudo-terminal, against our server, the REAL Claude Code runtime and the scripted model, the
 * conversation Claude knows goes back to before a task, and a fork goes on in a new context.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "@a2a-js/sdk";
import { a2a, EVERY_TASK, KEY, reply, terminal, text } from "../support/harness/index.js";

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
