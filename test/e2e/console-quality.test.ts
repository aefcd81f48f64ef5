/**
 * The console's quality bars (issue 37 item 7) and its nested subagents (item 3), in a real
 * headless Chromium against the real server, runtime and scripted model: axe-core finds no
 * serious or critical violation on the list, a task, a permission request, a question and at
 * phone width; the approve / deny / answer flow works by keyboard alone; a 20,000-delta answer
 * streams with no main-thread task over 200 ms; a list of 1,000 tasks is usable within 1 s; a
 * subagent's calls are shown under its `Agent` call, with screenshots at 1280 and 390 px; and
 * the control forms (a plan to approve, rewind with its dry run, fork) pass axe-core too.
 * The two budgets are measured in the browser (its Performance API), as their names say.
 */
import { access, copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  COLOUR_QUESTION,
  idsOf,
  openConsole,
  sendForTask,
  userMessage,
  reply,
  screenshotDir,
  shared,
  startChromium,
  text,
  toolUse,
  type A2AHarness,
  type ConsolePage,
} from "../support/harness/index.js";
import {
  focusIs,
  markTime,
  seriousViolations,
  tabTo,
  watchLongTasks,
  type Violation,
} from "../support/harness/page-quality.js";
import { finishedTasks, storeTasks } from "../support/harness/stored-tasks.js";
import { PLAN_CONFIG, PLAN_PROMPT, planningRules } from "../support/harness/planning.js";
import { initRepository, writeFileRules } from "../support/harness/git.js";
import { LISTED_MARK } from "../../console/marks.js";
import { PAGE_SIZE } from "../../console/task-pages.js";

const browser = shared(() => startChromium());

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The console of `h` (closed by `closeChecked`). */
const consoleOf = (h: A2AHarness, hash = "", viewport = LAPTOP) =>
  openConsole(browser().browser, `${h.server.url}/console/${hash}`, viewport);

/** Closes the page: it asked nothing of anything but loopback, and threw nothing. */
async function closeChecked(open: ConsolePage): Promise<void> {
  await open.context.close();
  expect(open.foreign).toEqual([]);
  expect(open.errors).toEqual([]);
}

const FLOW = "Save the two notes, then ask me";
const FLOW_ANSWER = [
  "Saved **one** note; the other was refused.",
  "",
  "- colour: `red`",
  "- see [the notes](https://example.com/notes)",
  "",
  "```ts",
  'const colour = "red"; // your answer',
  "```",
].join("\n");

/**
 * A task asking, in turn: to write a file outside the workspace (allow it), to write another
 * (deny it, with a reason), and a question (answer it); then it answers in Markdown.
 */
function promptFlow(h: A2AHarness) {
  const allowed = join(h.bench.sandbox.root, "outside", "allowed.txt");
  const refused = join(h.bench.sandbox.root, "outside", "refused.txt");
  h.bench.model.setRules([
    {
      name: "answered",
      match: { toolResult: /"Which colour do you prefer\?"=/ },
      reply: reply(text(FLOW_ANSWER)),
    },
    {
      name: "ask",
      match: { toolResult: /denied this action/ },
      reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] })),
    },
    {
      name: "second",
      match: { toolResult: true },
      reply: reply(toolUse("Write", { file_path: refused, content: "no\n" })),
    },
    {
      name: "first",
      match: { lastUserText: FLOW, toolResult: false },
      reply: reply(toolUse("Write", { file_path: allowed, content: "yes\n" })),
    },
  ]);
  return { allowed, refused };
}

/** The tool result the model was sent before the rule `name` answered. */
const resultBefore = (h: A2AHarness, name: string) =>
  h.bench.model.requests.find((r) => r.rule === name)?.request.toolResults[0]?.content ?? "";

/** axe-core's serious/critical violations now, at the page's size and at a phone's. */
async function bothWidths(page: Page, view: string, into: Record<string, Violation[]>) {
  into[view] = await seriousViolations(page);
  await page.setViewportSize(PHONE);
  into[`${view} at 390 px`] = await seriousViolations(page);
  await page.setViewportSize(LAPTOP);
}

describe("the console's accessibility", () => {
  it("axe-core finds no serious or critical violation on the list, a permission request, a question, a task (light and dark), each also at 390 px", async () => {
    const h = await a2a();
    promptFlow(h);
    await h.stream(FLOW);
    const open = await consoleOf(h);
    const { page } = open;
    const found: Record<string, Violation[]> = {};
    await page.locator(".task-row").first().waitFor({ timeout: 30_000 });
    await bothWidths(page, "the list", found);

    await page.locator(".task-row").first().click();
    const permission = page.locator(".permission-form");
    await permission.waitFor({ timeout: 30_000 });
    await bothWidths(page, "a permission request", found);
    await permission.locator("button.allow").click();
    await page.locator(".permission-form .input", { hasText: "refused.txt" }).waitFor({
      timeout: 60_000,
    });
    await page.locator(".permission-form button.deny").click();
    await page.locator(".question-form").waitFor({ timeout: 60_000 });
    await bothWidths(page, "a question", found);
    await page.locator(".question-form .option", { hasText: "red" }).click();
    await page.locator(".question-form button[type=submit]").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });

    // The whole task, every collapsible part open: tool calls, files, protocol details.
    await page.evaluate(
      `document.querySelectorAll("#task-view details").forEach((d) => (d.open = true))`,
    );
    await bothWidths(page, "a task", found);
    await page.emulateMedia({ colorScheme: "dark" });
    await bothWidths(page, "a task, dark", found);
    expect(found).toEqual({
      "the list": [],
      "the list at 390 px": [],
      "a permission request": [],
      "a permission request at 390 px": [],
      "a question": [],
      "a question at 390 px": [],
      "a task": [],
      "a task at 390 px": [],
      "a task, dark": [],
      "a task, dark at 390 px": [],
    });
    await closeChecked(open);
  });

  it("approves, denies with a reason and answers a question by keyboard alone (Tab, Enter, Space; no click)", async () => {
    const h = await a2a();
    const { allowed, refused } = promptFlow(h);
    await h.stream(FLOW);
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator(".task-row").first().waitFor({ timeout: 30_000 });
    await tabTo(page, ".task-row");
    await page.keyboard.press("Enter");

    // Allow: the focus is on the prompt (a stray Enter grants nothing); Tab reaches Allow.
    await page.locator(".permission-form").waitFor({ timeout: 30_000 });
    expect(await focusIs(page, ".permission-form")).toBe(true);
    await tabTo(page, "button.allow", 5);
    await page.keyboard.press("Enter");

    // Deny with a reason: the next request's form has the focus; Space on Deny.
    await page.locator(".permission-form .input", { hasText: "refused.txt" }).waitFor({
      timeout: 60_000,
    });
    expect(await focusIs(page, ".permission-form")).toBe(true);
    await tabTo(page, "input[name=reason]", 5);
    await page.keyboard.type("not outside the repo");
    await tabTo(page, "button.deny", 5);
    await page.keyboard.press("Space");

    // The question: Tab into its options, Space chooses, Tab to Send, Enter.
    await page.locator(".question-form").waitFor({ timeout: 60_000 });
    expect(await focusIs(page, ".question-form")).toBe(true);
    await tabTo(page, ".question-form input[type=radio]", 5);
    await page.keyboard.press("Space");
    await tabTo(page, ".question-form button[type=submit]", 5);
    await page.keyboard.press("Enter");

    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await readFile(allowed, "utf8")).toBe("yes\n");
    await expect(access(refused)).rejects.toThrow();
    expect(resultBefore(h, "ask")).toContain("The user denied this action (not outside the repo).");
    expect(resultBefore(h, "answered")).toContain('"Which colour do you prefer?"="red"');
    expect(await page.locator(".entry.message.user p").allTextContents()).toEqual([
      FLOW,
      "Allow",
      "Deny: not outside the repo",
      "red",
    ]);
    await closeChecked(open);
  });
});

describe("the console's control forms are accessible", () => {
  it("axe-core finds no serious or critical violation on a plan to approve, at 1280 and 390 px", async () => {
    const h = await a2a({ config: PLAN_CONFIG, rules: planningRules() });
    const open = await consoleOf(h);
    const { page } = open;
    await page.locator("#composer-plan").waitFor({ timeout: 30_000 });
    await page.locator("#composer-plan-first").check();
    await page.locator("#composer-text").fill(PLAN_PROMPT);
    await page.locator("#composer button[type=submit]").click();
    await page.locator(".plan-form .markdown.plan li").waitFor({ timeout: 60_000 });
    const found: Record<string, Violation[]> = {};
    await bothWidths(page, "a plan", found);
    expect(found).toEqual({ "a plan": [], "a plan at 390 px": [] });
    await page.locator("#cancel").click();
    await page.locator("#task-state", { hasText: "canceled" }).waitFor({ timeout: 30_000 });
    await closeChecked(open);
  });

  it("axe-core finds no serious or critical violation on the rewind form (its dry-run diff shown) and the fork form, at 1280 and 390 px", async () => {
    const h = await a2a({
      rules: writeFileRules,
      config: { claude: { isolation: "worktree" } },
      beforeStart: initRepository,
    });
    const tasks = [];
    for (const n of [1, 2])
      tasks.push(await sendForTask(h.client, userMessage(`Write f${n}`, { contextId: "ax1" })));
    const open = await consoleOf(h, `#task=${tasks[1]?.id ?? ""}`);
    const { page } = open;
    const found: Record<string, Violation[]> = {};
    await page.locator("#rewind").click({ timeout: 30_000 });
    await page.locator(".rewind-form .dry-run-diff pre.diff").waitFor({ timeout: 60_000 });
    await page.locator("#rewind-prompt").waitFor();
    await bothWidths(page, "the rewind form", found);
    await page.locator(".rewind-form button.close").click();
    await page.locator("#fork").click();
    await page.locator("#fork-prompt").waitFor({ timeout: 30_000 });
    await bothWidths(page, "the fork form", found);
    expect(found).toEqual({
      "the rewind form": [],
      "the rewind form at 390 px": [],
      "the fork form": [],
      "the fork form at 390 px": [],
    });
    await closeChecked(open);
  });
});

/** An answer of `length` characters, Markdown as answers are: headings, prose, lists, code. */
function longAnswer(length: number): string {
  const sections: string[] = [];
  for (let i = 1; sections.join("\n\n").length < length; i++) {
    sections.push(
      [
        `## Part ${i}`,
        `The **${i}th** part walks through \`step ${i}\` of the change, and why it is safe: ` +
          "every caller keeps its contract, the tests cover the edge cases, and nothing else moves.",
        `- check the input of step ${i}\n- run the tests\n- write the notes`,
        "```ts\n" + `const step = ${i}; // the step of this part\nexport default step;\n` + "```",
      ].join("\n\n"),
    );
  }
  return sections.join("\n\n").slice(0, length);
}

const CHUNK = 4;
const DELTAS = 20_000;
const LONG = longAnswer(CHUNK * DELTAS);

// Budgets the issue asks of the page, measured in the browser. A task's duration is wall time, so
// on a machine loaded past its cores the scheduler alone can stretch one: each is tried up to
// three times, and one clean run shows the page meets it.
describe("the console's budgets", { retry: 2 }, () => {
  it("budget measured in the browser: a 20,000-delta answer streams with no main-thread task over 200 ms (Long Tasks API)", async () => {
    // The scripted model sends the answer in deltas of 4 characters: 20,000 of them.
    expect(Math.ceil(LONG.length / CHUNK)).toBe(DELTAS);
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Write the long answer" },
          reply: reply(text(LONG), { chunkSize: CHUNK }),
        },
      ],
    });
    const open = await consoleOf(h);
    const { page } = open;
    await page
      .locator("#task-list .empty", { hasText: "No tasks yet" })
      .waitFor({ timeout: 30_000 });
    const longTasks = await watchLongTasks(page);
    // The answer's length as the page shows it, sampled: it grows while it streams.
    await page.evaluate(`{
      window.__lengths = [];
      setInterval(() => {
        const n = document.querySelector(".assistant-text")?.textContent.length ?? 0;
        if (n > 0 && window.__lengths.at(-1) !== n) window.__lengths.push(n);
      }, 100);
    }`);
    await page.locator("#composer-text").fill("Write the long answer");
    await page.locator("#composer-text").press("Control+Enter");
    // The first heading's node, marked once a block follows it: a re-render keeps the blocks
    // above the last one in the page (no flicker), so it is the same node at the end.
    await page.locator(".assistant-text > p").first().waitFor({ timeout: 150_000 });
    await page.evaluate(`document.querySelector(".assistant-text h5").__kept = true`);
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 150_000 });
    expect(await page.evaluate(`document.querySelector(".assistant-text h5").__kept`)).toBe(true);

    const last = LONG.slice(LONG.lastIndexOf("## Part ") + 3).split("\n")[0] ?? "";
    await page.locator(".assistant-text h5", { hasText: last }).waitFor();
    const lengths = await page.evaluate<number[]>("window.__lengths");
    expect(lengths.length).toBeGreaterThan(2);
    expect(await longTasks.durations().then((d) => d.filter((ms) => ms > 200))).toEqual([]);
    await closeChecked(open);
  }, 180_000);

  it("budget measured in the browser: a list of 1,000 stored tasks is listed within 1 s of a reload's navigation (performance mark), opens a task, and pages to the thousandth", async () => {
    const tasks = finishedTasks(1000);
    const h = await a2a({ beforeStart: (cwd) => storeTasks(cwd, tasks) });
    const open = await consoleOf(h);
    const { page } = open;
    const rows = page.locator(".task-row");
    await rows.first().waitFor({ timeout: 30_000 });
    // Measured on a reload: a server that just started compiles its request paths on the first
    // one (a served console's server has been running).
    await page.reload();
    await rows.first().waitFor({ timeout: 30_000 });
    const listedAt = await markTime(page, LISTED_MARK);
    expect(listedAt).toBeDefined();
    expect(listedAt).toBeLessThan(1000);
    // The first page of ListTasks, newest first; the rest a page at a time.
    expect(await rows.count()).toBe(PAGE_SIZE);
    expect(await rows.first().locator(".ask").textContent()).toBe("Stored task 1000");
    await rows.first().click();
    await page.locator("#task-title", { hasText: "Stored task 1000" }).waitFor();

    for (let shown = PAGE_SIZE; shown < tasks.length; shown += PAGE_SIZE) {
      await page.locator("#list-more").click();
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(shown + PAGE_SIZE);
    }
    expect(await page.locator("#list-more").count()).toBe(0);
    expect(await rows.last().locator(".ask").textContent()).toBe("Stored task 1");
    await page.locator("#search").fill("Stored task 7");
    expect(await page.locator(".task-row .ask").allTextContents()).toContain("Stored task 7");
    await closeChecked(open);
  }, 120_000);
});

const SURVEY = "Survey the repository with a helper";
const SURVEY_ANSWER = "The helper counted **3 files**:\n\n- `a.txt`\n- `b.txt`\n- `c.txt`";

/** Each `tool_use` status of a stream: its tool, its id and its parent call's. */
function toolUses(events: readonly StreamResponse[]) {
  return events.flatMap((e) => {
    const meta =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message?.metadata : undefined;
    return meta?.kind === "tool_use"
      ? [
          {
            toolName: meta.toolName as unknown,
            toolUseId: meta.toolUseId as unknown,
            parent: meta.parentToolUseId as unknown,
          },
        ]
      : [];
  });
}

describe("the console's subagents", () => {
  it("a subagent's calls are shown under its Agent call, not beside it; screenshots at 1280 and 390 px", async () => {
    const h = await a2a({
      config: { claude: { allowedTools: ["Bash"] } },
      rules: [
        {
          name: "sub-report",
          match: { subagent: true, toolResult: true },
          reply: reply(text("There are **3 files**: a.txt, b.txt and c.txt.")),
        },
        {
          name: "sub-count",
          match: { subagent: true, lastUserText: "Count the files", toolResult: false },
          reply: reply(toolUse("Bash", { command: "echo 3 files", description: "Count them" })),
        },
        {
          name: "answer",
          match: { subagent: false, toolResult: true },
          reply: reply(text(SURVEY_ANSWER)),
        },
        {
          name: "delegate",
          match: { subagent: false, lastUserText: SURVEY, toolResult: false },
          reply: reply(
            toolUse("Agent", {
              description: "Count the files",
              prompt: "Count the files of the repository",
              subagent_type: "general-purpose",
              run_in_background: false,
            }),
          ),
        },
      ],
    });
    const events = await h.stream(SURVEY);
    // On the wire: the subagent's Bash call names the Agent call it ran in.
    const uses = toolUses(events);
    const agentCall = uses.find((u) => u.toolName === "Agent");
    expect(agentCall?.parent).toBeUndefined();
    expect(uses.find((u) => u.toolName === "Bash")?.parent).toBe(agentCall?.toolUseId);

    const open = await consoleOf(h, `#task=${idsOf(events).taskId}`);
    const { page } = open;
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    const agent = page.locator('.timeline > details[data-tool="Agent"]');
    expect(await agent.locator(":scope > summary .tool-count").textContent()).toBe("1 call");
    expect(await page.locator('.timeline > details[data-tool="Bash"]').count()).toBe(0);
    await agent.locator(":scope > summary").click();
    const bash = agent.locator('.subagent-calls > details[data-tool="Bash"]');
    expect(await bash.locator("summary").textContent()).toContain("Running echo 3 files");
    await bash.locator("summary").click();
    expect(await bash.locator(".tool-output pre").textContent()).toBe("3 files");
    // The subagent's report is the Agent call's own output: rendered as Markdown, out of the
    // runtime's frame (its hand-back paragraph, the agent id, the usage block), the usage in words.
    const report = agent.locator(":scope > .subagent-report");
    expect(await report.locator(".markdown.report strong").textContent()).toBe("3 files");
    expect(await report.locator(".markdown.report").textContent()).toBe(
      "There are 3 files: a.txt, b.txt and c.txt.",
    );
    expect(await report.locator(".note").textContent()).toMatch(
      /^The subagent used \d+ tokens · 1 tool use · [\d.]+ m?s\.$/,
    );
    for (const frame of ["Subagent hand-back", "agentId", "<usage>", "tools-used-before-summary"])
      expect(await agent.textContent()).not.toContain(frame);
    const found: Record<string, Violation[]> = {};
    await bothWidths(page, "a task with a subagent", found);
    expect(found).toEqual({
      "a task with a subagent": [],
      "a task with a subagent at 390 px": [],
    });

    // The screenshots show the task from its head.
    await page.evaluate(`document.getElementById("task-view").scrollTop = 0`);
    const shots = await screenshotDir();
    await page.screenshot({ path: join(shots, "console-quality-1280.png") });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(shots, "console-quality-390.png"), fullPage: true });
    // The pictures of docs/console.md: this test alone writes docs/console.png (and the phone's,
    // the screen as a phone shows it from the task's head, not the whole page).
    if (process.env.CONSOLE_SCREENSHOT_DOCS === "1") {
      await copyFile(
        join(shots, "console-quality-1280.png"),
        new URL("../../docs/console.png", import.meta.url),
      );
      await page.evaluate(`document.getElementById("task-title").scrollIntoView()`);
      await page.screenshot({
        path: fileURLToPath(new URL("../../docs/console-390.png", import.meta.url)),
      });
    }
    await closeChecked(open);
  });
});
