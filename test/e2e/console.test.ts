/**
 * The web console (/console) in a real headless Chromium, against the real server, runtime and
 * scripted model: a task an A2A client starts appears and streams; its permission prompt is
 * answered in the page; a question is answered by clicking; cancel works; a token is asked on a
 * 401. The browser may reach loopback only, and the page must request nothing else.
 */
import { createHash } from "node:crypto";
import { access, copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  asks,
  idsOf,
  listRequest,
  perTest,
  reply,
  says,
  shared,
  startA2AHarness,
  startChromium,
  testScope,
  text,
  tokenEntries,
  toolUse,
  workspaces,
  writes,
  type A2AHarness,
  type Rule,
} from "../support/harness/index.js";
import { bearerFetch } from "../../src/client/connect.js";
import { exists, writeNote } from "../support/a2a/workspaces.js";
import { openConsole, screenshotDir, type ConsolePage } from "../support/browser.js";
import { startCuttingProxy } from "../support/cutting-proxy.js";
import { releaseBash, slowBashRules } from "../support/harness/control.js";

const chromium = shared(() => startChromium());
/** The test's last console page: checked when the test ends (before its server closes). */
let open: ConsolePage | undefined;

afterEach(async () => {
  // What the page asked of anything but loopback, and what it threw: nothing, in every test.
  const foreign = open?.foreign ?? [];
  const errors = open?.errors ?? [];
  await open?.context.close();
  open = undefined;
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

const consoleUrl = (harness: A2AHarness) => `${harness.server.url}/console/`;

/** ListTasks of every context of the caller. */
const listAll = { ...listRequest(""), contextId: "" };

/** Starts a streamed send in the background (the test drives the page meanwhile). */
function sendInBackground(harness: A2AHarness, message: string) {
  const events = harness.stream(message);
  events.catch(() => undefined);
  return events;
}

/** Opens the first task the page lists (the list polls ListTasks). */
async function openFirstTask(page: ConsolePage["page"]): Promise<void> {
  const row = page.locator(".task-row").first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
  await page.locator(".task-head").waitFor();
}

const STORY =
  "Once upon a time a small robot lived in a lighthouse and counted the ships that passed by. " +
  "Every night it wrote their names in a book, and every morning it read them to the gulls.";

describe("the web console", () => {
  it("a task an A2A client starts appears in the list, and its text, tool call and file stream in", async () => {
    // The model waits until the page follows the task, so the page sees every event live.
    let following!: () => void;
    const followed = new Promise<void>((resolve) => (following = resolve));
    const rules: Rule[] = [
      {
        match: { lastUserText: "Tell a story", toolResult: false },
        reply: async () => {
          await followed;
          return reply(
            toolUse("Write", { file_path: "story.txt", content: "a robot\na lighthouse\n" }),
          );
        },
      },
      {
        match: { toolResult: true },
        reply: reply(text(STORY), { chunkSize: 6, chunkDelayMs: 60 }),
      },
    ];
    const h = await a2a({ rules });
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    // The empty state, once the first ListTasks answered (before it, the page says it is loading).
    await page
      .locator("#task-list .empty", { hasText: "No tasks yet" })
      .waitFor({ timeout: 30_000 });

    // Every length the streamed text took in the page, as the DOM changed.
    // (Scripts as text: this file is type-checked without the DOM's types.)
    await page.evaluate(`{
      const seen = (window.seen = []);
      new MutationObserver(() => {
        const t = document.querySelector(".assistant-text")?.textContent ?? "";
        if (t !== "" && seen.at(-1) !== t.length) seen.push(t.length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }`);
    const events = sendInBackground(h, "Tell a story");
    const subscribed = page.waitForResponse(
      (r) => r.request().postData()?.includes("SubscribeToTask") === true,
    );
    await openFirstTask(page);
    await subscribed;
    following();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await events;

    expect(await page.locator(".assistant-text").last().textContent()).toBe(STORY);
    const lengths = await page.evaluate<number[]>("window.seen");
    // It grew in the page: some shorter text was shown before the whole.
    expect(lengths.some((n) => n > 0 && n < STORY.length)).toBe(true);
    // The tool call, with its kind and tool name, and the file with its diff (all added).
    await expect(
      page.locator('.entry.status[data-kind="tool_use"] .tool-name').first().textContent(),
    ).resolves.toBe("Write");
    expect(await page.locator('.entry.status[data-kind="result"]').count()).toBe(1);
    const file = page.locator('details.file[data-path="story.txt"]');
    await file.locator("summary").click();
    expect(await file.locator(".line.add").allTextContents()).toEqual([
      "+a robot\n",
      "+a lighthouse\n",
    ]);
    await page.screenshot({
      path: join(await screenshotDir(), "console-streamed.png"),
      fullPage: true,
    });
    expect(await page.locator(".task-row").first().getAttribute("data-state")).toBe("completed");
    expect(await page.locator('[data-fact="origin"]').textContent()).toBe("foreground");
    expect(await page.locator('[data-fact="cost"]').textContent()).toMatch(/^\$/);
  });

  it("a permission prompt answered Allow in the page lets Claude write the file", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside", "report.txt");
    h.bench.model.setRules([
      writes("Save the report", outside, "report\n"),
      afterTool(true, "Saved the report."),
    ]);
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    const first = await h.stream("Save the report");
    const { taskId } = idsOf(first);
    await openFirstTask(page);
    const form = page.locator(".permission-form");
    await form.waitFor();
    expect(await form.locator(".tool").textContent()).toBe("Write");
    expect(await form.locator(".input").textContent()).toContain(outside);

    const shots = await screenshotDir();
    await page.screenshot({ path: join(shots, "console-laptop.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, "console-phone.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    if (process.env.CONSOLE_SCREENSHOT_DOCS === "1") {
      await copyFile(
        join(shots, "console-laptop.png"),
        new URL("../../docs/console.png", import.meta.url),
      );
    }

    // Keyboard: focus Allow and press Enter.
    await form.locator("button.allow").focus();
    await page.keyboard.press("Enter");
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await readFile(outside, "utf8")).toBe("report\n");
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await page.locator(".entry.message.user").allTextContents()).toContain("YouAllow");
  });

  it("Deny with a reason in the page tells Claude the reason, and writes nothing", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside", "denied.txt");
    h.bench.model.setRules([
      writes("Save the secret", outside, "secret\n"),
      afterTool(true, "I did not save it.", "told"),
    ]);
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    await h.stream("Save the secret");
    await openFirstTask(page);
    const form = page.locator(".permission-form");
    await form.locator("input[name=reason]").fill("not outside the repo");
    await form.locator("button.deny").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    const told = h.bench.model.requests.find((r) => r.rule === "told")?.request;
    expect(told?.toolResults[0]?.content).toContain(
      "The user denied this action (not outside the repo).",
    );
    await expect(access(outside)).rejects.toThrow();
    expect(await page.locator(".entry.message.user p").allTextContents()).toContain(
      "Deny: not outside the repo",
    );
  });

  it("a question with options is answered by clicking one", async () => {
    const h = await a2a({
      rules: asks("Paint the fence", {
        answer: /blue/,
        then: "Painting it blue.",
        name: "answered",
      }),
    });
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    await h.stream("Paint the fence");
    await openFirstTask(page);
    const form = page.locator(".question-form");
    await form.waitFor();
    expect(await form.locator("legend").textContent()).toBe("Colour: Which colour do you prefer?");
    expect(await form.locator(".option .label").allTextContents()).toEqual(["red", "blue"]);
    // Sending with nothing chosen says what is missing, and sends nothing.
    await form.locator("button[type=submit]").click();
    expect(await form.locator(".form-error").textContent()).toBe(
      "Choose an answer to: Which colour do you prefer?",
    );
    await form.locator(".option", { hasText: "blue" }).click();
    await form.locator("button[type=submit]").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    const answered = h.bench.model.requests.find((r) => r.rule === "answered")?.request;
    expect(answered?.toolResults[0]?.content).toContain('"Which colour do you prefer?"="blue"');
    expect(await page.locator(".entry.message.agent p").allTextContents()).toContain(
      "Painting it blue.",
    );
  });

  it("Cancel in the page cancels a working task", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = await a2a({
      rules: [
        {
          match: { lastUserText: "Think for a long time" },
          reply: async () => {
            await held;
            return reply(text("Done thinking."));
          },
        },
      ],
    });
    try {
      open = await openConsole(chromium().browser, consoleUrl(h));
      const { page } = open;
      const events = sendInBackground(h, "Think for a long time");
      await openFirstTask(page);
      await page.locator("#task-state", { hasText: "working" }).waitFor({ timeout: 60_000 });
      await page.locator("#cancel").click();
      await page.locator("#task-state", { hasText: "canceled" }).waitFor({ timeout: 30_000 });
      const { taskId } = idsOf(await events);
      const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: 0 });
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(await page.locator("#cancel").count()).toBe(0);
      await page.locator('.task-row[data-state="canceled"]').waitFor();
    } finally {
      release();
    }
  });
});

describe("the web console's composer", () => {
  it("starts a new conversation from the page, then writes into it", async () => {
    const h = await a2a({
      rules: [says("Hello from the page", "Hello, page."), says("And again", "Again, page.")],
    });
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    expect(await page.locator("#composer-target").textContent()).toBe("New conversation");
    await page.locator("#composer-text").fill("Hello from the page");
    await page.locator("#composer-text").press("Control+Enter");
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await page.locator(".entry.message.user p").allTextContents()).toEqual([
      "Hello from the page",
    ]);
    expect(await page.locator(".assistant-text").last().textContent()).toBe("Hello, page.");
    const [first] = (await h.client.listTasks(listAll)).tasks;
    expect(first?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // The composer now writes into that conversation: a second task in the same context.
    expect(await page.locator("#composer-target").textContent()).toMatch(/^Conversation /);
    await page.locator("#composer-text").fill("And again");
    await page.locator("#composer button[type=submit]").click();
    await page.locator(".assistant-text", { hasText: "Again, page." }).waitFor({ timeout: 60_000 });
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    const tasks = (await h.client.listTasks(listAll)).tasks;
    expect(tasks).toHaveLength(2);
    expect(new Set(tasks.map((t) => t.contextId)).size).toBe(1);
    await page.locator(".conversation .task-row").nth(1).waitFor({ timeout: 30_000 });
    expect(await page.locator(".conversation").count()).toBe(1);
  });
});

describe("the web console's own reconnect", () => {
  it("a stream dropped mid-task says reconnecting…, resumes from its last event number, and shows what it missed once", async () => {
    const h = await a2a({ config: { claude: { allowedTools: ["Bash"] } }, rules: slowBashRules() });
    // The page reaches the server through a loopback proxy that drops its connections on cue.
    const proxy = perTest(
      await startCuttingProxy({
        target: h.server.port,
        cuts: 0,
        probability: 0,
        maxBytes: 0,
        random: () => 1,
      }),
    );
    open = await openConsole(chromium().browser, `http://127.0.0.1:${proxy.port}/console/`);
    const { page } = open;
    const resumedFrom: string[] = [];
    page.on("request", (r) => {
      const id = r.headers()["last-event-id"];
      if (id !== undefined) resumedFrom.push(id);
    });
    await page.locator("#composer-text").fill("Build the release");
    await page.locator("#composer button[type=submit]").click();
    // The command runs until the test releases it: the stream is open and quiet.
    await page.locator('details[data-tool="Bash"]').waitFor({ timeout: 60_000 });
    await page.evaluate(`{
      window.__said = [];
      const el = document.getElementById("task-error");
      new MutationObserver(() => window.__said.push(el.textContent)).observe(el, {
        childList: true, characterData: true, subtree: true,
      });
    }`);
    expect(proxy.dropOpen()).toBeGreaterThan(0);
    await expect.poll(() => resumedFrom.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await releaseBash(h);
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });

    const said = await page.evaluate<string[]>("window.__said");
    const reconnecting = said.find((t) => t.startsWith("reconnecting…")) ?? "";
    expect(reconnecting).toMatch(/^reconnecting… \(from event \d+\)$/);
    // It asked for the events after the last one it had, and says nothing once it is back.
    expect(resumedFrom[0]).toBe(/\d+/.exec(reconnecting)?.[0]);
    expect(Number(resumedFrom[0])).toBeGreaterThan(0);
    expect(await page.locator("#task-error").textContent()).toBe("");
    // What it missed, once: one call with its output, one answer.
    expect(await page.locator('details[data-tool="Bash"]').count()).toBe(1);
    expect(await page.locator('details[data-tool="Bash"]').getAttribute("data-tool-state")).toBe(
      "done",
    );
    expect(await page.locator(".assistant-text").allTextContents()).toEqual(["Built it."]);
  });
});

describe("the web console of a workspace", () => {
  it("is served under /agents/<name>/console/, talks to that workspace only, and switches to another", async () => {
    const { bench, dirs, server } = await workspaces();
    bench.model.setRules(writeNote("Write the api note", dirs.api, "api"));
    open = await openConsole(chromium().browser, `${server.url}/agents/api/console/`);
    const { page } = open;
    // The name comes with the card, after the page has loaded: wait for it, then compare.
    await page.locator("#agent-name", { hasText: "API agent" }).waitFor({ timeout: 30_000 });
    expect(await page.locator("#agent-name").textContent()).toBe("API agent");
    await page.locator("#composer-text").fill("Write the api note");
    await page.locator("#composer button[type=submit]").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    expect(await exists(join(dirs.api, "note.txt"))).toBe(true);
    expect(await exists(join(dirs.web, "note.txt"))).toBe(false);
    // The workspace switcher lists the workspaces the caller may reach (GET /agents), this one
    // chosen; choosing another opens its console, which lists nothing of this one's.
    const switcher = page.locator("#workspace");
    await switcher.waitFor({ timeout: 30_000 });
    expect(await switcher.locator("option").allTextContents()).toEqual(["api", "web"]);
    expect(await switcher.inputValue()).toBe("api");
    await switcher.selectOption("web");
    await page.waitForURL(`${server.url}/agents/web/console/`, { timeout: 30_000 });
    await page
      .locator("#task-list .empty", { hasText: "No tasks yet" })
      .waitFor({ timeout: 30_000 });
    expect(await page.locator("#workspace").inputValue()).toBe("web");
    expect(await page.locator("#agent-name").textContent()).not.toBe("API agent");
  });
});

describe("the web console's authentication", () => {
  it("asks for a token on a 401, keeps it in the tab's session storage, and says so on a wrong one", async () => {
    const token = "console-test-token-alice";
    const sha256 = createHash("sha256").update(token).digest("hex");
    const h = await a2a({
      rules: [says("Say hi", "Hi.")],
      config: { server: { auth: { tokens: [{ name: "alice", sha256 }] } } },
      fetchImpl: bearerFetch(token),
    });
    await h.stream("Say hi");
    open = await openConsole(chromium().browser, consoleUrl(h));
    const { page } = open;
    await page.locator('#trouble[data-kind="token"]').waitFor({ timeout: 30_000 });
    expect(await page.locator("#connection").textContent()).toBe("not signed in");
    expect(await page.locator(".task-row").count()).toBe(0);

    await page.locator("#token-input").fill("not-the-token");
    await page.locator("#token-input").press("Enter");
    await page.locator("#trouble .detail", { hasText: "The bearer token is not valid." }).waitFor();
    expect(await page.evaluate(`sessionStorage.getItem("claude-a2a.console.token")`)).toBe(
      "not-the-token",
    );

    await page.locator("#token-input").fill(token);
    await page.locator("#token-form button[type=submit]").click();
    await page.locator(".task-row").first().waitFor({ timeout: 30_000 });
    expect(await page.locator("#trouble").isHidden()).toBe(true);
    expect(await page.locator("#connection").textContent()).toBe("connected");
    // The tab keeps it (a reload needs no token); nothing else does.
    await page.reload();
    await page.locator(".task-row").first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate("localStorage.length")).toBe(0);
    const other = await openConsole(chromium().browser, consoleUrl(h));
    try {
      await other.page.locator('#trouble[data-kind="token"]').waitFor({ timeout: 30_000 });
    } finally {
      await other.context.close();
    }
  });

  it("with the Tailscale gate the proxy's login is enough; a login it does not allow sees the 403", async () => {
    const h = await a2a({ config: { server: { allowedLogins: ["you@example.com"] } } });
    open = await openConsole(chromium().browser, consoleUrl(h), undefined, {
      "Tailscale-User-Login": "mallory@example.com",
    });
    await open.page.locator('#trouble[data-kind="forbidden"]').waitFor({ timeout: 30_000 });
    expect(await open.page.locator("#trouble").textContent()).toContain(
      "refused this caller (403)",
    );
    await open.context.close();
    open = await openConsole(chromium().browser, consoleUrl(h), undefined, {
      "Tailscale-User-Login": "you@example.com",
    });
    await open.page.locator('#connection[data-state="ok"]').waitFor({ timeout: 30_000 });
    await open.page.locator("#task-list", { hasText: "No tasks yet" }).waitFor({ timeout: 30_000 });
  });

  it("says so when the server cannot be reached", async () => {
    // The test stops the server itself: closed when the test ends only if it did not get there.
    const h = await startA2AHarness();
    let stopped = false;
    testScope().defer(() => (stopped ? undefined : h.close()));
    open = await openConsole(chromium().browser, consoleUrl(h));
    await open.page.locator('#connection[data-state="ok"]').waitFor({ timeout: 30_000 });
    await h.close();
    stopped = true;
    await open.page.locator('#trouble[data-kind="unreachable"]').waitFor({ timeout: 30_000 });
    expect(await open.page.locator("#connection").textContent()).toBe("unreachable");
  });

  it("a second caller's task is invisible without the operator role and answerable with it", async () => {
    const tokens = {
      ops: "console-ops-token",
      bob: "console-bob-token",
      carol: "console-carol-token",
    };
    const h = await a2a({
      config: {
        server: {
          auth: {
            tokens: tokenEntries(tokens),
          },
          operators: ["ops"],
        },
      },
      fetchImpl: bearerFetch(tokens.bob),
    });
    const outside = join(h.bench.sandbox.root, "outside", "ops.txt");
    h.bench.model.setRules([
      writes("Save the ops report", outside, "ops\n"),
      afterTool(true, "Saved."),
    ]);
    const first = await h.stream("Save the ops report");
    const { taskId } = idsOf(first);

    // Carol is no operator: bob's task is not hers to see.
    open = await openConsole(chromium().browser, consoleUrl(h));
    await signIn(open.page, tokens.carol);
    await open.page
      .locator("#task-list .empty", { hasText: "No tasks yet" })
      .waitFor({ timeout: 30_000 });
    // And still after another round of ListTasks.
    await open.page.waitForResponse((r) => r.request().postData()?.includes("ListTasks") === true);
    await open.page.waitForFunction(() => true);
    expect(await open.page.locator(".task-row").count()).toBe(0);
    await open.context.close();

    // The operator sees it and grants it.
    open = await openConsole(chromium().browser, consoleUrl(h));
    await signIn(open.page, tokens.ops);
    await open.page.locator(`.task-row[data-task-id="${taskId}"]`).click({ timeout: 30_000 });
    await open.page.locator(".permission-form button.allow").click({ timeout: 30_000 });
    await open.page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    // The owner is told who answered (the operator's resumed status), and the page shows it too.
    expect(await open.page.locator('.entry.status[data-kind="resumed"] .text').textContent()).toBe(
      "Resumed with the answer of operator ops.",
    );
    await access(outside);
    const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

async function signIn(page: ConsolePage["page"], token: string): Promise<void> {
  await page.locator('#trouble[data-kind="token"]').waitFor({ timeout: 30_000 });
  await page.locator("#token-input").fill(token);
  await page.locator("#token-input").press("Enter");
  await page.locator('#connection[data-state="ok"]').waitFor({ timeout: 30_000 });
}
