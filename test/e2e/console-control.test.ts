/**
 * Control from the page (issue 37 item 6, docs/console.md), in a real headless Chromium against
 * the real server, runtime and scripted model: a plan is approved or rejected with feedback, a
 * conversation is rewound to before a task (its dry-run diff shown first), a task is forked into
 * a new conversation the page opens, each only where the card offers it; and a question or a
 * permission a delegated peer asked names that peer.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  a2a,
  COLOUR_QUESTION,
  openConsole,
  reply,
  sendForTask,
  shared,
  startChromium,
  text,
  toolUse,
  userMessage,
  type A2AHarness,
  type ConsolePage,
  requestOf,
  peerPair,
  temp,
  writes,
  afterTool,
} from "../support/harness/index.js";
import {
  PLAN_CONFIG,
  PLAN_FEEDBACK,
  PLAN_PROMPT,
  planningRules,
} from "../support/harness/planning.js";
import {
  expectRewoundToF1,
  git,
  initRepository,
  workingDir,
  writeFileRules,
} from "../support/harness/git.js";
import { exists } from "../support/a2a/workspaces.js";

const browser = shared(() => startChromium());

async function consoleOf(h: A2AHarness, hash = ""): Promise<ConsolePage> {
  return openConsole(browser().browser, `${h.server.url}/console/${hash}`);
}

async function closeChecked(open: ConsolePage): Promise<void> {
  await open.context.close();
  expect(open.foreign).toEqual([]);
  expect(open.errors).toEqual([]);
}

const completed = (page: Page) =>
  page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });

/** Sends `prompt` from the composer, with "Plan first" ticked. */
async function planFromPage(page: Page): Promise<void> {
  await page.locator("#composer-plan").waitFor({ timeout: 30_000 });
  await page.locator("#composer-plan-first").check();
  await page.locator("#composer-text").fill(PLAN_PROMPT);
  await page.locator("#composer button[type=submit]").click();
  await page.locator(".plan-form").waitFor({ timeout: 60_000 });
}

describe("the console approves a plan", () => {
  it("shows the plan as Markdown; Approve carries out its Write", async () => {
    const h = await a2a({ config: PLAN_CONFIG, rules: planningRules() });
    const open = await consoleOf(h);
    const { page } = open;
    await planFromPage(page);
    const plan = page.locator(".plan-form .markdown.plan");
    expect(await plan.locator(".md-heading").textContent()).toBe("Plan");
    expect(await plan.locator("ol > li").allTextContents()).toEqual(["Write hello.txt saying hi."]);
    // Planning changed nothing, and the focus is on the form, not on Approve.
    expect(await exists(join(h.bench.sandbox.cwd, "hello.txt"))).toBe(false);
    expect(await page.evaluate("document.activeElement?.matches('.plan-form')")).toBe(true);
    expect(h.frames).toContainEqual(expect.objectContaining({ permissionMode: "plan" }));

    await page.locator(".plan-form button.approve").click();
    await completed(page);
    expect(await readFile(join(h.bench.sandbox.cwd, "hello.txt"), "utf8")).toBe("hi\n");
    expect(await page.locator(".assistant-text").last().textContent()).toBe(
      "Wrote hello.txt as planned.",
    );
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual([
      "plan",
      "exit plan mode",
      "carry out",
      "done",
    ]);
    await closeChecked(open);
  });

  it("Reject with feedback needs the feedback, then brings a revised plan and writes nothing", async () => {
    const h = await a2a({ config: PLAN_CONFIG, rules: planningRules() });
    const open = await consoleOf(h);
    const { page } = open;
    await planFromPage(page);
    // Without feedback nothing is sent.
    const asked = h.bench.model.requests.length;
    await page.locator(".plan-form button.reject").click();
    expect(await page.locator(".plan-form .form-error").textContent()).toMatch(
      /^Say what to change/,
    );
    await page.locator("#plan-feedback").fill(PLAN_FEEDBACK);
    expect(h.bench.model.requests.length).toBe(asked);

    await page.locator(".plan-form button.reject").click();
    await page
      .locator(".plan-form .markdown.plan li", { hasText: "Write README.md." })
      .waitFor({ timeout: 60_000 });
    const revise = h.bench.model.requests.find((r) => r.rule === "revise");
    expect(revise?.request.toolResults[0]?.content).toContain(PLAN_FEEDBACK);
    expect(await exists(join(h.bench.sandbox.cwd, "hello.txt"))).toBe(false);
    await page.locator("#cancel").click();
    await page.locator("#task-state", { hasText: "canceled" }).waitFor({ timeout: 30_000 });
    expect(await exists(join(h.bench.sandbox.cwd, "hello.txt"))).toBe(false);
    expect(h.bench.model.unmatched).toEqual([]);
    await closeChecked(open);
  });
});

describe("the console rewinds and forks", () => {
  it("rewinds to before task 2 under worktrees: the dry run's diff first, nothing changed; then the new prompt", async () => {
    const h = await a2a({
      rules: writeFileRules,
      config: { claude: { isolation: "worktree" } },
      beforeStart: initRepository,
    });
    const tasks = [];
    for (const n of [1, 2, 3])
      tasks.push(await sendForTask(h.client, userMessage(`Write f${n}`, { contextId: "rw1" })));
    const t2 = tasks[1]!;
    const first = h.bench.model.requests[0]?.request;
    if (first === undefined) throw new Error("no model request");
    const cwd = workingDir(first);
    const head = git(cwd, "rev-parse", "HEAD").trim();
    const asked = h.bench.model.requests.length;

    const open = await consoleOf(h, `#task=${t2.id}`);
    const { page } = open;
    await page.locator("#rewind").click({ timeout: 30_000 });
    const diff = page.locator(".rewind-form .dry-run-diff pre.diff");
    await diff.waitFor({ timeout: 60_000 });
    const shown = (await diff.textContent()) ?? "";
    expect(shown).toContain("f2.txt");
    expect(shown).toContain("f3.txt");
    expect(shown).not.toContain("f1.txt");
    // The dry run changed nothing and never reached Claude.
    expect(git(cwd, "rev-parse", "HEAD").trim()).toBe(head);
    expect(await exists(join(cwd, "f3.txt"))).toBe(true);
    expect(h.bench.model.requests.length).toBe(asked);

    await page.locator("#rewind-prompt").fill("Write f4");
    await page.locator(".rewind-form button[type=submit]").click();
    await page.locator("#task-title", { hasText: "Write f4" }).waitFor({ timeout: 60_000 });
    await completed(page);
    await page.locator('.entry.status[data-kind="rewound"]').waitFor({ timeout: 30_000 });
    await expectRewoundToF1(h, cwd);
    // The rewinding task is of the same conversation.
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("task") ?? "";
    const rewound = await h.client.getTask({ tenant: "", id, historyLength: undefined });
    expect(rewound.contextId).toBe("rw1");
    expect(h.bench.model.unmatched).toEqual([]);
    await closeChecked(open);
  });

  it("forks task 2 into a new conversation the page opens; its model requests hold tasks 1-2, not 3", async () => {
    const h = await a2a({ rules: [{ match: {}, reply: reply(text("Noted.")) }] });
    const tasks = [];
    for (const n of ["one", "two", "three"])
      tasks.push(await sendForTask(h.client, userMessage(`Remember ${n}`, { contextId: "fk1" })));
    const t2 = tasks[1]!;
    const open = await consoleOf(h, `#task=${t2.id}`);
    const { page } = open;
    await page.locator("#fork").click({ timeout: 30_000 });
    await page.locator("#fork-prompt").fill("Go on from two");
    await page.locator(".fork-form button[type=submit]").click();
    await page.locator("#task-title", { hasText: "Go on from two" }).waitFor({ timeout: 60_000 });
    await completed(page);

    // The page is on the fork: its link, its conversation, the composer writing into it.
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("task") ?? "";
    const forked = await h.client.getTask({ tenant: "", id, historyLength: undefined });
    expect(forked.contextId).not.toBe("fk1");
    expect((forked.metadata?.control as { forkOf?: string } | undefined)?.forkOf).toBe(t2.id);
    expect(await page.locator("#composer-target").textContent()).toBe(
      `Conversation ${forked.contextId.slice(0, 8)}`,
    );
    // The list shows the new conversation, titled by its first prompt, the original kept.
    await page
      .locator(`.conversation[data-context-id="${forked.contextId}"] h2`, {
        hasText: "Go on from two",
      })
      .waitFor({ timeout: 30_000 });
    expect(await page.locator('.conversation[data-context-id="fk1"] .task-row').count()).toBe(3);
    const seen = requestOf(h, "Go on from two");
    expect(seen).toContain("Remember one");
    expect(seen).toContain("Remember two");
    expect(seen).not.toContain("Remember three");

    // The next message from the composer goes on in the fork.
    await page.locator("#composer-text").fill("And then?");
    await page.locator("#composer button[type=submit]").click();
    await page.locator("#task-title", { hasText: "And then?" }).waitFor({ timeout: 60_000 });
    await completed(page);
    const next = requestOf(h, "And then?");
    expect(next).toContain("Remember two");
    expect(next).toContain("Go on from two");
    expect(next).not.toContain("Remember three");
    await closeChecked(open);
  });

  it("offers no rewind, fork or plan where the server has them off", async () => {
    const h = await a2a({
      config: { server: { control: { rewind: false, fork: false } } },
      rules: [{ match: {}, reply: reply(text("Noted.")) }],
    });
    const done = await sendForTask(h.client, userMessage("Remember one"));
    const open = await consoleOf(h, `#task=${done.id}`);
    const { page } = open;
    await completed(page);
    expect(await page.locator("#rewind, #fork").count()).toBe(0);
    // Plan mode is not in claude.allowedPermissionModes: no "Plan first".
    expect(await page.locator("#composer-plan").isHidden()).toBe(true);
    await closeChecked(open);
  });
});

describe("the console names a delegated peer", () => {
  it("a question from peer b says it is b's, and its answer reaches b", async () => {
    const { a, b } = await peerPair(
      {
        rules: [
          {
            match: { lastUserText: "Pick a colour", toolResult: false },
            reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] })),
          },
          { match: { toolResult: /blue/ }, reply: reply(text("B picked blue")) },
        ],
      },
      "Ask B to choose",
      "Pick a colour",
    );
    const open = await consoleOf(a);
    const { page } = open;
    await page.locator("#composer-text").fill("Ask B to choose");
    await page.locator("#composer button[type=submit]").click();
    const form = page.locator(".question-form");
    await form.waitFor({ timeout: 60_000 });
    expect(await form.locator("h3").textContent()).toBe("Peer agent b asks");
    expect(await form.locator(".from-peer .peer-name").textContent()).toBe("b");
    expect(await form.locator("legend").textContent()).toBe(
      `${COLOUR_QUESTION.header}: ${COLOUR_QUESTION.question}`,
    );
    await form.locator('input[value="blue"]').check();
    await form.locator("button[type=submit]").click();
    await completed(page);
    expect(await page.locator(".timeline").textContent()).toContain("B picked blue");
    expect(b.bench.model.unmatched).toEqual([]);
    await closeChecked(open);
  });

  it("a permission peer b asks for says it is b's, and a deny with its reason reaches b, whose file is not written", async () => {
    const outside = await temp("console-peer-outside-");
    const target = join(outside.path, "denied.txt");
    const { a, b } = await peerPair(
      { rules: [writes("Write the file", target, "no\n"), afterTool(true, "B was not allowed")] },
      "Ask B to write",
      "Write the file",
    );
    const open = await consoleOf(a);
    const { page } = open;
    await page.locator("#composer-text").fill("Ask B to write");
    await page.locator("#composer button[type=submit]").click();
    const form = page.locator(".permission-form");
    await form.waitFor({ timeout: 60_000 });
    expect(await form.locator(".from-peer .peer-name").textContent()).toBe("b");
    expect(await form.locator(".tool").textContent()).toBe("Write");
    await form.locator('input[name="reason"]').fill("not on this machine");
    await form.locator("button.deny").click();
    await completed(page);
    expect(await page.locator(".timeline").textContent()).toContain("B was not allowed");
    // The deny, with its reason, was B's runtime's answer to B's own tool call.
    const denied = b.bench.model.messageRequests.flatMap((r) =>
      r.toolResults.map((t) => t.content),
    );
    expect(denied.join("\n")).toContain("not on this machine");
    expect(await exists(target)).toBe(false);
    expect(b.bench.model.unmatched).toEqual([]);
    await closeChecked(open);
  });
});
