/**
 * `claude-a2a chat`'s control of a conversation (docs/control.md "Steer", "Rewind", "Fork"): in
 * a pseudo-terminal, against our server, the REAL Claude Code runtime and the scripted model. A
 * line typed while Claude runs a slow command is folded into the same turn of the same task;
 * `/rewind` takes the conversation Claude knows back to before a task, and `/fork` goes on in a
 * new context. The first test's terminal is docs/control.md's recorded session, line for line.
 *
 * Each test starts its own server: each counts the server's tasks, which the other's would change.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "@a2a-js/sdk";
import { comparableScreen, recordedScreen } from "../support/demo/transcripts.js";
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

/** The prompts of docs/control.md's recorded session, after the steered build. */
const REWIND_TO_BUILD = "/rewind Build the release, but leave the changelog alone.";
const PACKAGE = "Now package it.";
const PACKAGED = "Packaged it: release.tar.gz.";

describe("claude-a2a chat: steering, /rewind and /fork, as docs/control.md records it (real runtime)", () => {
  it("a line typed while Claude works reaches the same turn; /rewind goes back before it; /fork branches", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] } },
      rules: [
        { name: "package", match: { lastUserText: PACKAGE }, reply: reply(text(PACKAGED)) },
        ...slowBashRules(),
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
    await untilQueued(h);
    await releaseBash(h);

    at = await t.waitFor(STEERED_ANSWER, { from: at });
    at = await t.waitFor("[completed]", { from: at });
    // The stream's `steered`: Claude took the typed line.
    expect(t.text()).toContain(`↳ Claude took: ${STEER}`);
    const afterTool = h.bench.model.requests.find((r) => r.request.toolResults.length > 0);
    expect(bodyHas(STEER)(afterTool?.request ?? { body: "" })).toBe(true);
    // One task: the typed line steered it, it started no other.
    const [build, ...others] = (await h.client.listTasks(EVERY_TASK)).tasks;
    expect(others).toEqual([]);

    // Back to before the build: Claude builds again, without the steering it no longer knows.
    at = await t.waitFor(">", { from: at });
    t.write(`${REWIND_TO_BUILD}${KEY.enter}`);
    at = await t.waitFor("[completed]", { from: at });
    const again = h.bench.model.requests.filter((r) => r.request.toolResults.length > 0).at(-1);
    expect(bodyHas(STEER)(again?.request ?? { body: STEER })).toBe(false);
    const rewinding = taskOf((await h.client.listTasks(EVERY_TASK)).tasks, "leave the changelog");
    expect(rewinding.metadata?.control).toMatchObject({ rewoundTo: build?.id });

    // A fork of the rewinding task: a new context that knows it.
    at = await t.waitFor(">", { from: at });
    t.write(`/fork ${PACKAGE}${KEY.enter}`);
    at = await t.waitFor("[completed]", { from: at });
    expect(
      bodyHas("leave the changelog alone")(h.bench.model.requests.at(-1)?.request ?? { body: "" }),
    ).toBe(true);
    const fork = taskOf((await h.client.listTasks(EVERY_TASK)).tasks, PACKAGE);
    expect(fork.contextId).not.toBe(rewinding.contextId);
    expect(fork.metadata?.control).toMatchObject({ forkOf: rewinding.id });
    expect(h.bench.model.unmatched).toEqual([]);

    await t.waitFor(">", { from: at });
    t.write(`/exit${KEY.enter}`);
    expect(await t.exited).toBe(0);
    // docs/control.md's recorded session is this run's terminal, as it shows it.
    expect(comparableScreen(t.screen())).toBe(
      comparableScreen(await recordedScreen("docs/control.md", "test/e2e/client-control.test.ts")),
    );
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
