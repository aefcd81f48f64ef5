/**
 * A delivery in the web console (issue 50 item 7, docs/console.md "Delivering work"), in a real
 * headless Chromium against the real server, runtime and scripted model, with real git and a
 * real check: round 1's red check shows while the fix turn is still to come, round 2's green one
 * after it, then the proof of work in its own panel; reopened, the task shows the same from its
 * kept events, and from the proof of work alone where no events are kept.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { ConfigInput } from "../../src/config/schema.js";
import {
  a2a,
  openConsole,
  reply,
  sendRequest,
  shared,
  startChromium,
  text,
  toolUse,
  userMessage,
  watch,
  type A2AHarness,
  type ConsolePage,
  type ParsedRequest,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { initRepository, workingDir } from "../support/harness/git.js";
import { Gate } from "../support/gated-inbox.js";
import { seriousViolations } from "../support/harness/page-quality.js";

const browser = shared(() => startChromium());

const PRESENT = {
  name: "present",
  command: "test -f fixed.txt || { echo 'fixed.txt is missing'; exit 1; }",
  timeoutSeconds: 120,
};

const config = (replay: boolean) =>
  ({
    ...(!replay && { replay: { enabled: false } }),
    claude: { isolation: "worktree", delivery: { checks: [PRESENT], maxRounds: 2 } },
  }) satisfies ConfigInput;

/** The scripted model: "Done." first; the fix turn writes fixed.txt once `gate` opens. */
const rules = (gate: Gate) => [
  {
    name: "fix: write the missing file",
    match: { lastUserText: /fixed\.txt is missing/, toolResult: false },
    reply: async (req: ParsedRequest) => {
      await gate.opened;
      return reply(
        toolUse("Write", { file_path: join(workingDir(req), "fixed.txt"), content: "ok\n" }),
      );
    },
  },
  { name: "fixed", match: { toolResult: /fixed\.txt/ }, reply: reply(text("Wrote fixed.txt.")) },
  { name: "first turn", match: { lastUserText: /Do the work/ }, reply: reply(text("Done.")) },
];

async function start(replay: boolean): Promise<{ h: A2AHarness; gate: Gate }> {
  const gate = new Gate();
  const h = await a2a({
    fetchImpl: withControl,
    config: config(replay),
    rules: rules(gate),
    beforeStart: (cwd) => initRepository(cwd),
  });
  return { h, gate };
}

/** Starts the delivery; resolves with its task id and the stream's end. */
async function deliver(h: A2AHarness) {
  const stream = watch(
    h.client.sendMessageStream(
      sendRequest({ ...userMessage("Do the work"), metadata: { deliver: true } }),
    ),
  );
  const first = await stream.first((e) => e.payload?.$case === "task");
  const id = first.payload?.$case === "task" ? first.payload.value.id : "";
  return { id, done: stream.done };
}

async function closeChecked(open: ConsolePage): Promise<void> {
  await open.context.close();
  expect(open.foreign).toEqual([]);
  expect(open.errors).toEqual([]);
}

const round = (page: Page, n: number) =>
  page.locator(`.timeline .delivery-round[data-round="${n}"]`);

/** What the proof of work panel lists: each round's checks as `<round> <check> <result>`. */
const proofChecks = (page: Page): Promise<string[]> =>
  page.evaluate(`[...document.querySelectorAll("#proof-of-work .delivery-round .check")].map(
    (el) => el.closest(".delivery-round").dataset.round + " " + el.dataset.check + " " + el.dataset.result,
  )`);

/** The timeline's rounds and tool calls, in order. */
const timelineOrder = (page: Page): Promise<string[]> =>
  page.evaluate(`[...document.querySelectorAll(".timeline > .entry")].flatMap((el) =>
    el.matches(".delivery") ? ["round " + el.querySelector(".delivery-round").dataset.round]
    : el.matches(".tool") ? ["tool"] : [],
  )`);

async function expectProofPanel(page: Page): Promise<void> {
  const panel = page.locator("#proof-of-work");
  await panel.waitFor({ timeout: 30_000 });
  expect(await proofChecks(page)).toEqual(["1 present failed", "2 present passed"]);
  expect(await panel.locator('[data-field="target"] dd').textContent()).toBe("branch");
  expect(await panel.locator('[data-field="rounds"] dd').textContent()).toBe("2");
  expect(await panel.locator(".proof-files li").allTextContents()).toEqual(["fixed.txt (added)"]);
  // The red check's output is in the proof too.
  expect(await panel.locator('.check[data-result="failed"] pre.check-output').textContent()).toBe(
    "fixed.txt is missing",
  );
}

describe("the console shows a delivery", () => {
  it("round 1 red while the fix turn waits, round 2 green after it, then the proof of work; the same reopened", async () => {
    const { h, gate } = await start(true);
    const { id, done } = await deliver(h);
    const open = await openConsole(browser().browser, `${h.server.url}/console/#task=${id}`);
    const { page } = open;

    // Round 1, live: the fix turn cannot start before the gate opens, so the task still works.
    const first = round(page, 1);
    await first.waitFor({ timeout: 60_000 });
    const red = first.locator('.check[data-check="present"]');
    expect(await red.getAttribute("data-result")).toBe("failed");
    expect(await red.locator(".meta").textContent()).toMatch(/exit code 1 · \d+ (ms|s) · /);
    expect(await red.locator(".check-command").textContent()).toBe(PRESENT.command);
    // A red check's output is open at once.
    expect(await red.locator("pre.check-output").isVisible()).toBe(true);
    expect(await red.locator("pre.check-output").textContent()).toBe("fixed.txt is missing");
    expect(await first.locator(".round-head").textContent()).toBe("Checks, round 1: 1 of 1 failed");
    expect(await page.locator("#task-state").textContent()).toBe("working");
    expect(await round(page, 2).count()).toBe(0);
    expect(await page.locator("#proof-of-work").count()).toBe(0);

    gate.open();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    await done;
    const second = round(page, 2);
    expect(await second.locator(".check").getAttribute("data-result")).toBe("passed");
    // A green check's output is folded.
    expect(await second.locator("pre.check-output, .tool-empty").isVisible()).toBe(false);
    // The fix turn sits between the rounds, in the order it happened.
    expect(await timelineOrder(page)).toEqual(["round 1", "tool", "round 2"]);
    await expectProofPanel(page);
    // The rounds and the panel pass axe-core (no serious or critical violation).
    expect(await seriousViolations(page)).toEqual([]);

    // Reopened: replayed from its kept events, the rounds and the panel are there again.
    await page.reload();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    await round(page, 2).waitFor({ timeout: 30_000 });
    expect(await round(page, 1).locator(".check").getAttribute("data-result")).toBe("failed");
    await expectProofPanel(page);
    expect(h.bench.model.unmatched).toEqual([]);
    await closeChecked(open);
  }, 120_000);

  it("without kept events a reopened task shows every check from its proof of work", async () => {
    const { h, gate } = await start(false);
    gate.open();
    const { id, done } = await deliver(h);
    await done;
    const open = await openConsole(browser().browser, `${h.server.url}/console/#task=${id}`);
    const { page } = open;
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    await expectProofPanel(page);
    // The progress statuses are not stored: no round in the timeline, the panel holds them all.
    expect(await page.locator(".timeline .delivery-round").count()).toBe(0);
    await closeChecked(open);
  }, 120_000);
});
