/**
 * The console shows an answer once, and the caller's own answers stay (issue 49, item 7): a task
 * asks a permission, the page allows it, Claude answers; the answer's text is in the task view
 * once, and after a reload (the task read back from the server: its stored history) "Allow" is
 * still there, as is the chosen option of a question. Real headless Chromium, the real server,
 * runtime and scripted model.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  a2a,
  COLOUR_QUESTION,
  idsOf,
  openConsole,
  reply,
  shared,
  startChromium,
  text,
  toolUse,
} from "../support/harness/index.js";

const browser = shared(() => startChromium());

const ASK = "Save the report outside, then ask me a colour";
const ANSWER = "Saved the report and noted the colour red.";

/** How many times `needle` is in the task view's timeline. */
async function timesShown(page: Page, needle: string): Promise<number> {
  const shown = await page.locator(".timeline").innerText();
  return shown.split(needle).length - 1;
}

describe("the console's answers", () => {
  it("shows Claude's answer once after a permission and a question, and keeps Allow and the chosen option after a reload", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside", "report.txt");
    h.bench.model.setRules([
      {
        match: { toolResult: /"Which colour do you prefer\?"=/ },
        reply: reply(text(ANSWER)),
      },
      {
        match: { toolResult: true },
        reply: reply([
          text("Saved. One question first."),
          toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] }),
        ]),
      },
      {
        match: { lastUserText: ASK, toolResult: false },
        reply: reply([
          text("I will save the report."),
          toolUse("Write", { file_path: outside, content: "report\n" }),
        ]),
      },
    ]);
    const { taskId } = idsOf(await h.stream(ASK));
    const open = await openConsole(browser().browser, `${h.server.url}/console/#task=${taskId}`);
    const { page } = open;

    await page.locator(".permission-form button.allow").click({ timeout: 30_000 });
    await page.locator(".question-form input[type=radio][value=red]").check({ timeout: 60_000 });
    await page.locator(".question-form button[type=submit]").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await page.locator(".timeline", { hasText: ANSWER }).waitFor({ timeout: 30_000 });
    expect(await timesShown(page, ANSWER)).toBe(1);
    expect(await page.locator(".entry.message.user p").allTextContents()).toEqual([
      ASK,
      "Allow",
      "red",
    ]);

    await page.reload();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    await page.locator(".timeline", { hasText: ANSWER }).waitFor({ timeout: 30_000 });
    expect(await page.locator(".entry.message.user p").allTextContents()).toEqual([
      ASK,
      "Allow",
      "red",
    ]);
    expect(await timesShown(page, ANSWER)).toBe(1);
    expect(open.foreign).toEqual([]);
    expect(open.errors).toEqual([]);
    await open.context.close();
  }, 180_000);
});
