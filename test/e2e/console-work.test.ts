/**
 * The web console shows the work, not the protocol (issue 37), in a real headless Chromium against
 * the real server, runtime and scripted model, at 1280 px and at phone width: a conversation is
 * titled by its first prompt, a task card says what was asked and how it went, every tool call
 * shows its input and output, answers are rendered Markdown in which nothing can run, a change
 * is shown once; search, filters and links find a task; a prompt waiting in a hidden tab raises a
 * notification and counts in the title; a working task is steered from the page.
 */
import { createHash } from "node:crypto";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  a2a,
  afterTool,
  asks,
  idsOf,
  openConsole,
  reply,
  says,
  screenshotDir,
  shared,
  startChromium,
  text,
  toolUse,
  writes,
  type A2AHarness,
  type ConsolePage,
} from "../support/harness/index.js";
import { isQueuedCommand, releaseBash, slowBashRules, STEER } from "../support/harness/control.js";
import { seriousViolations, type Violation } from "../support/harness/page-quality.js";
import { finishedTasks, storeTasks } from "../support/harness/stored-tasks.js";
import { PAGE_SIZE } from "../../console/task-pages.js";
import { TaskState } from "@a2a-js/sdk";

/** axe-core's serious/critical violations at 1280 px and at a phone's 390 px. */
async function violationsAtBothWidths(page: Page): Promise<Record<string, Violation[]>> {
  const laptop = await seriousViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const phone = await seriousViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  return { "1280 px": laptop, "390 px": phone };
}

const browser = shared(() => startChromium());

/** The page of `h`'s console (closed with the test), its 404s and errors checked at the end. */
async function consoleOf(h: A2AHarness, hash = "", viewport?: { width: number; height: number }) {
  const open = await openConsole(browser().browser, `${h.server.url}/console/${hash}`, viewport);
  const missing: string[] = [];
  open.page.on("response", (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  return { ...open, missing };
}

async function closeChecked(open: ConsolePage & { missing: string[] }): Promise<void> {
  await open.context.close();
  expect(open.foreign).toEqual([]);
  expect(open.errors).toEqual([]);
  expect(open.missing).toEqual([]);
}

const PROMPT = "Run the tests and write the notes";
const ANSWER = [
  "Done: **all 3 tests pass**.",
  "",
  "- ran `echo 3 passed`",
  "- wrote the notes",
  "",
  "```ts",
  "const passed = 3; // all of them",
  "```",
  "",
  "| test | result |",
  "| ---- | :----: |",
  "| unit | passed |",
  "",
  "<script>window.__pwned = 1</script>",
  "",
  '<img src=x onerror="window.__pwned = 2">',
  "",
  "See [the notes](https://example.com/notes) or [this](javascript:window.__pwned=3).",
].join("\n");

/** Each fact's name and value on one line: the pair never wraps apart. */
async function factsWhole(page: Page): Promise<boolean> {
  return page.evaluate(`[...document.querySelectorAll(".facts .fact")].every((f) => {
    const [dt, dd] = [f.querySelector("dt"), f.querySelector("dd")];
    return dt && dd && Math.abs(dt.getBoundingClientRect().top - dd.getBoundingClientRect().top) < 2;
  })`);
}

describe("the console shows the work", () => {
  it("titles, task cards, a Bash call with its output, a Write's diff once, Markdown that cannot run script", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash", "Write"] } },
      rules: [
        {
          match: { lastUserText: PROMPT, toolResult: false },
          reply: reply(toolUse("Bash", { command: "echo 3 passed", description: "Run the tests" })),
        },
        {
          match: { toolResult: /3 passed/ },
          reply: reply(toolUse("Write", { file_path: "notes.md", content: "# Notes\n3 passed\n" })),
        },
        { match: { toolResult: true }, reply: reply(text(ANSWER)) },
      ],
    });
    await h.stream(PROMPT);
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator(".task-row").first().click({ timeout: 30_000 });
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });

    // Names: the conversation and the task are what was asked; the card says how it went.
    expect(await page.locator(".conversation h2").textContent()).toBe(PROMPT);
    expect(await page.locator(".task-row .ask").textContent()).toBe(PROMPT);
    expect(await page.locator(".task-row .outcome").textContent()).toMatch(
      /^completed Completed in \d+ (ms|s) · \$\d/,
    );
    expect(await page.locator("#task-title").textContent()).toBe(PROMPT);
    expect(await page.locator("#task-outcome").textContent()).toMatch(/^Completed in .+ · \$/);

    // The Bash call: its command, and its output once opened.
    const bash = page.locator('details[data-tool="Bash"]');
    expect(await bash.locator("summary").textContent()).toContain("Running echo 3 passed");
    await bash.locator("summary").click();
    expect(await bash.locator(".tool-output pre").textContent()).toBe("3 passed");
    expect(await bash.locator(".tool-note").textContent()).toBe("Run the tests");
    // The Write: its path; its change shown once, in the files.
    const write = page.locator('details[data-tool="Write"]');
    expect(await write.locator("summary").textContent()).toContain("Writing notes.md");
    await page.locator('details.file[data-path="notes.md"] summary').click();
    expect(await page.getByText("+3 passed", { exact: true }).count()).toBe(1);

    // Everyday words in the timeline; the kinds only in the details view.
    const timeline = (await page.locator(".timeline").textContent()) ?? "";
    for (const kind of ["tool_use", "tool_result", "ask_user_question", "resumed"])
      expect(timeline).not.toContain(kind);
    expect(await page.locator(".timeline .ended").textContent()).toMatch(/^Completed in /);
    await page.locator("#protocol-details summary").click();
    const details = (await page.locator("#protocol-details").textContent()) ?? "";
    expect(details).toContain("tool_use");
    expect(details).toContain("tool_result");

    // Markdown: bold, a list, a highlighted code block, a safe link.
    const answer = page.locator(".assistant-text").last();
    expect(await answer.locator("strong").textContent()).toBe("all 3 tests pass");
    expect(await answer.locator("ul > li").allTextContents()).toEqual([
      "ran echo 3 passed",
      "wrote the notes",
    ]);
    expect(await answer.locator("pre.code-block .hljs-keyword").first().textContent()).toBe(
      "const",
    );
    expect(await answer.locator("pre.code-block .hljs-comment").textContent()).toBe(
      "// all of them",
    );
    expect(await answer.locator(".md-table th").allTextContents()).toEqual(["test", "result"]);
    expect(await answer.locator(".md-table td.align-center").textContent()).toBe("passed");
    const link = answer.locator("a", { hasText: "the notes" });
    expect(await link.getAttribute("href")).toBe("https://example.com/notes");
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
    // Hostile HTML is text: no element, no handler, nothing ran.
    expect(await answer.locator("script, img, [onerror]").count()).toBe(0);
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await answer.textContent()).toContain("<script>window.__pwned = 1</script>");
    expect(await page.evaluate("window.__pwned")).toBeUndefined();

    // The header's facts never wrap mid-pair, at 1280 px and at phone width.
    expect(await factsWhole(page)).toBe(true);
    // The screenshots show the task from its head, the details closed again.
    await page.locator("#protocol-details summary").click();
    await page.evaluate(`document.getElementById("task-view").scrollTop = 0`);
    const shots = await screenshotDir();
    await page.screenshot({ path: join(shots, "console-work-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await factsWhole(page)).toBe(true);
    // Nothing is wider than the phone (long lines scroll inside their own box).
    expect(
      await page.evaluate(`[...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre"))
        .map((e) => e.tagName.toLowerCase() + "." + [...e.classList].join("."))
        .slice(0, 5)`),
    ).toEqual([]);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    expect(await page.locator("#task-title").isVisible()).toBe(true);
    await page.screenshot({ path: join(shots, "console-work-390.png"), fullPage: true });
    // docs/console.md's picture of a Markdown answer beside its tool calls (docs/console.png is
    // console-quality.test.ts's: one test writes each picture).
    if (process.env.CONSOLE_SCREENSHOT_DOCS === "1") {
      await copyFile(
        join(shots, "console-work-1280.png"),
        new URL("../../docs/console-markdown.png", import.meta.url),
      );
    }
    // The favicon is served (no 404 on load).
    expect(await page.evaluate(`fetch("favicon.svg").then((r) => r.status)`)).toBe(200);
    await closeChecked(open);
  });
});

describe("the console shows each change once", () => {
  it("an Edit of a file that existed before the task shows its diff once, from the call's old and new strings, live and on a reload", async () => {
    const h = await a2a({ config: { claude: { allowedTools: ["Read", "Edit"] } } });
    const target = join(h.bench.sandbox.cwd, "app.txt");
    await writeFile(target, "a = 1\nb = 2\nc = 4\n");
    h.bench.model.setRules([
      {
        name: "read",
        match: { lastUserText: "Raise b", toolResult: false },
        reply: reply(toolUse("Read", { file_path: target })),
      },
      {
        name: "edit",
        times: 1,
        match: { toolResult: /b = 2/ },
        reply: reply(
          toolUse("Edit", { file_path: target, old_string: "b = 2", new_string: "b = 3" }),
        ),
      },
      { name: "done", match: { toolResult: true }, reply: reply(text("Raised b to 3.")) },
    ]);
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator("#composer-text").fill("Raise b");
    await page.locator("#composer button[type=submit]").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await readFile(target, "utf8")).toBe("a = 1\nb = 3\nc = 4\n");
    expect(h.bench.model.unmatched).toEqual([]);

    /** The file's diff, opened: its lines as shown, and what the page says of it. */
    const diffOf = async (p: Page) => {
      const file = p.locator('details.file[data-path="app.txt"]');
      await file.locator("summary").click();
      return {
        meta: await file.locator(".meta").textContent(),
        lines: await file.locator("pre.diff .line").allTextContents(),
        notes: await file.locator(".note").count(),
        // The change is on the page once: in the files, not again in the tool call.
        removed: await p.getByText("-b = 2", { exact: true }).count(),
        added: await p.getByText("+b = 3", { exact: true }).count(),
      };
    };
    const expected = {
      meta: "Edit · +1 −1",
      lines: [" a = 1\n", "-b = 2\n", "+b = 3\n", " c = 4\n"],
      notes: 0,
      removed: 1,
      added: 1,
    };
    const edit = page.locator('details[data-tool="Edit"]');
    expect(await edit.locator("summary").textContent()).toContain("Editing");
    expect(await diffOf(page)).toEqual(expected);
    await closeChecked(open);

    // Opened from its link, the task is read from its kept events: the same diff.
    const taskId = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("task") ?? "";
    const linked = await consoleOf(h, `#task=${taskId}`);
    await linked.page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    expect(await diffOf(linked.page)).toEqual(expected);
    await closeChecked(linked);
  });
});

describe("the console shows a long output in part", () => {
  it("a Bash output cut by the server (artifacts.maxToolOutputBytes) shows its last lines, Show all for the rest, and says where it was cut", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] }, artifacts: { maxToolOutputBytes: 60 } },
      rules: [
        {
          match: { lastUserText: "Count to 40", toolResult: false },
          reply: reply(toolUse("Bash", { command: "seq 1 40", description: "Count" })),
        },
        { match: { toolResult: true }, reply: reply(text("Counted.")) },
      ],
    });
    const events = await h.stream("Count to 40");
    const open = await consoleOf(h, `#task=${idsOf(events).taskId}`);
    const { page } = open;
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    const bash = page.locator('details[data-tool="Bash"]');
    await bash.locator("summary").click();
    const output = bash.locator(".tool-output pre");
    // What reached the page: the first 60 bytes of `seq 1 40` (the server cut the rest).
    const cut = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23";
    const lines = cut.split("\n");
    expect(await output.textContent()).toBe(lines.slice(-12).join("\n"));
    const more = bash.getByRole("button", { name: `Show all ${lines.length} lines` });
    expect(await bash.locator(".tool-output .note").textContent()).toBe(
      // `seq 1 40` prints 111 bytes; the runtime hands back its output without the last newline.
      "The server cut this output at its limit (110 bytes in all).",
    );
    await more.click();
    expect(await output.textContent()).toBe(cut);
    expect(await more.count()).toBe(0);
    await closeChecked(open);
  });
});

describe("the console finds things", () => {
  it("search by a word of the prompt, the state filter, and a task's and a conversation's link", async () => {
    const h = await a2a({
      rules: [says("Fix the login bug", "Fixed."), says("Paint the fence", "Painted.")],
    });
    const login = idsOf(await h.stream("Fix the login bug"));
    await h.stream("Paint the fence");
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator(".conversation").nth(1).waitFor({ timeout: 30_000 });
    const titles = () => page.locator(".conversation h2").allTextContents();
    expect(await titles()).toEqual(["Paint the fence", "Fix the login bug"]);

    await page.locator("#search").fill("login");
    expect(await titles()).toEqual(["Fix the login bug"]);
    await page.locator("#search").fill("");
    await page.locator("#filter-state").selectOption("failed");
    expect(await page.locator("#task-list .empty").textContent()).toBe(
      "No task matches the search.",
    );
    // A state chosen alone is asked of the server: the list comes with its answer.
    await page.locator("#filter-state").selectOption("completed");
    await expect
      .poll(titles, { timeout: 30_000 })
      .toEqual(["Paint the fence", "Fix the login bug"]);
    await closeChecked(open);

    // A task's link opens it directly; a conversation's shows it alone and writes into it.
    const linked = await consoleOf(h, `#task=${login.taskId}`);
    await linked.page.locator("#task-title").waitFor({ timeout: 30_000 });
    expect(await linked.page.locator("#task-title").textContent()).toBe("Fix the login bug");
    await closeChecked(linked);
    const conv = await consoleOf(h, `#conversation=${login.contextId}`);
    await conv.page.locator(".conversation").first().waitFor({ timeout: 30_000 });
    expect(await conv.page.locator(".conversation h2").allTextContents()).toEqual([
      "Fix the login bug",
    ]);
    expect(await conv.page.locator("#composer-target").textContent()).toMatch(/^Conversation /);
    await closeChecked(conv);
  });
});

describe("the console finds things beyond the pages it read", () => {
  it("a state chosen alone is asked of the server (ListTasks status): a failed task 120 tasks down is listed at once", async () => {
    const tasks = finishedTasks(121);
    const oldest = tasks[0];
    if (oldest?.status === undefined) throw new Error("no stored task");
    oldest.status.state = TaskState.TASK_STATE_FAILED;
    const h = await a2a({ beforeStart: (cwd) => storeTasks(cwd, tasks) });
    const open = await consoleOf(h);
    const { page } = open;
    const rows = page.locator(".task-row");
    await rows.first().waitFor({ timeout: 30_000 });
    expect(await rows.count()).toBe(PAGE_SIZE);
    const asked: unknown[] = [];
    page.on("request", (r) => {
      const body = r.postData() ?? "";
      if (body.includes("ListTasks")) asked.push((JSON.parse(body) as { params?: unknown }).params);
    });

    await page.locator("#filter-state").selectOption("failed");
    await expect
      .poll(() => page.locator(".task-row .ask").allTextContents(), { timeout: 30_000 })
      .toEqual(["Stored task 1"]);
    expect(await page.locator("#list-more").count()).toBe(0);
    expect(asked).toContainEqual(expect.objectContaining({ status: "TASK_STATE_FAILED" }));
    // Back to any state: the newest page again.
    await page.locator("#filter-state").selectOption("");
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(PAGE_SIZE);
    expect(await rows.first().locator(".ask").textContent()).toBe("Stored task 121");
    await closeChecked(open);
  });
});

/** Presses Tab until the focused element passes `is` (at most `max` times); its text. */
async function tabTo(page: Page, is: string, max = 40): Promise<string> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(is)}) === true`))
      return (await page.evaluate<string>("document.activeElement.textContent")).trim();
  }
  throw new Error(`no ${is} within ${max} Tabs`);
}

describe("the console by keyboard alone", () => {
  it("opens a task and allows its permission request with Tab and Enter only", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside", "keys.txt");
    h.bench.model.setRules([
      writes("Save by keyboard", outside, "keys\n"),
      afterTool(true, "Saved by keyboard."),
    ]);
    await h.stream("Save by keyboard");
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator(".task-row").first().waitFor({ timeout: 30_000 });
    expect(await tabTo(page, ".task-row")).toContain("Save by keyboard");
    await page.keyboard.press("Enter");
    await page.locator(".permission-form").waitFor({ timeout: 30_000 });
    // The focus is on the prompt, not on Allow; Tab reaches Allow, Enter grants.
    expect(await page.evaluate("document.activeElement?.matches('.permission-form')")).toBe(true);
    expect(await tabTo(page, "button.allow", 5)).toBe("Allow");
    await page.keyboard.press("Enter");
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await readFile(outside, "utf8")).toBe("keys\n");
    await closeChecked(open);
  });
});

describe("the console before sign-in", () => {
  it("says the tasks need a token instead of loading forever; its sign-in form passes axe-core", async () => {
    const sha256 = createHash("sha256").update("console-work-token").digest("hex");
    const h = await a2a({ config: { server: { auth: { tokens: [{ name: "ann", sha256 }] } } } });
    const open = await consoleOf(h);
    await open.page.locator('#trouble[data-kind="token"]').waitFor({ timeout: 30_000 });
    expect(await open.page.locator("#task-list").textContent()).toBe(
      "Sign in with a token to see the tasks.",
    );
    // The sign-in form passes axe-core.
    expect(await open.page.locator("#token-form").isVisible()).toBe(true);
    expect(await violationsAtBothWidths(open.page)).toEqual({ "1280 px": [], "390 px": [] });
    // The refusals of the A2A binding are the page's only non-2xx answers: no 404.
    await closeChecked(open);
  });
});

describe("the console does not let a prompt go unseen", () => {
  it("a prompt while the tab is hidden raises a notification and counts in the title", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", { then: "Painting it." }),
    });
    const open = await consoleOf(h);
    const { page, context } = open;
    await context.grantPermissions(["notifications"]);
    // The notifications the page raises, recorded; the tab hidden, as a background tab is.
    await page.evaluate(`{
      window.__notes = [];
      const Real = window.Notification;
      window.Notification = class extends Real {
        constructor(title, options) { window.__notes.push(title); super(title, options); }
      };
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    }`);
    await page
      .locator("#task-list .empty", { hasText: "No tasks yet" })
      .waitFor({ timeout: 30_000 });
    await h.stream("Paint the fence");
    await expect.poll(() => page.title(), { timeout: 30_000 }).toBe("(1) claude-a2a console");
    expect(await page.evaluate("window.__notes")).toEqual(["Claude is waiting: Paint the fence"]);
    // Back to the tab: the count goes.
    await page.evaluate(`{
      Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
      document.dispatchEvent(new Event("visibilitychange"));
    }`);
    expect(await page.title()).toBe("claude-a2a console");
    await closeChecked(open);
  });
});

describe("the console controls a task where the server offers it", () => {
  it("steers a working task from the page; the steering box passes axe-core", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] } },
      rules: slowBashRules("Built it, and updated the changelog."),
    });
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator("#composer-text").fill("Build the release");
    await page.locator("#composer button[type=submit]").click();
    await page.locator('details[data-tool="Bash"]').waitFor({ timeout: 60_000 });
    const form = page.locator(".steer-form");
    await form.waitFor({ timeout: 30_000 });
    // The steering box passes axe-core (the command waits for the test: it stays shown).
    expect(await violationsAtBothWidths(page)).toEqual({ "1280 px": [], "390 px": [] });
    await form.locator("textarea").fill(STEER);
    await form.locator("button[type=submit]").click();
    // The runtime has the message once it says it queued it; the command may then end.
    await expect.poll(() => h.frames.some(isQueuedCommand), { timeout: 30_000 }).toBe(true);
    await releaseBash(h);
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await page
      .locator('.entry.status[data-kind="steered"]', { hasText: `You steered: ${STEER}` })
      .waitFor({ timeout: 30_000 });
    // The answer ends with the steered reply. The runtime may first answer the command's result
    // alone ("Built it.") and the queued message after it, in the same turn: its own paragraph.
    expect(await page.locator(".assistant-text").last().locator("p").last().textContent()).toBe(
      "Built it, and updated the changelog.",
    );
    expect(await page.locator(".steer-form").count()).toBe(0);
    await closeChecked(open);
  });
});
