/**
 * The console's Triggers view (issue 51, docs/console.md), in a real headless Chromium against the
 * real server, runtime and scripted model: an operator sees the triggers, fires one now, and the
 * fired task opens and completes and is listed under its trigger (ListTasks with
 * A2A-Task-Trigger); a caller without the role never sees the view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  a2a,
  openConsole,
  reply,
  shared,
  startChromium,
  text,
  tokenEntries,
  type ConsolePage,
} from "../support/harness/index.js";

const TIMEOUT = 180_000;
const SECRET_ENV = "A2A_TEST_CONSOLE_TRIGGER_SECRET";
beforeAll(() => void (process.env[SECRET_ENV] = "console-trigger-secret-1"));
afterAll(() => void delete process.env[SECRET_ENV]);

const TOKEN = { alice: "alice-token-0123456789", ops: "ops-token-0123456789" };
const browser = shared(() => startChromium());

async function closeChecked(open: ConsolePage): Promise<void> {
  await open.context.close();
  expect(open.foreign).toEqual([]);
  expect(open.errors).toEqual([]);
}

describe("the console's Triggers view", () => {
  it(
    "an operator fires a trigger and follows its task; another caller never sees the view",
    async () => {
      const h = await a2a({
        config: {
          server: { auth: { tokens: tokenEntries(TOKEN) }, operators: ["ops"] },
          triggers: {
            fix: {
              kind: "webhook",
              verify: "github",
              secretEnv: SECRET_ENV,
              prompt: "Fix issue #{{issue.number}}",
              allowUnsandboxed: true,
            },
          },
        },
        rules: [
          { match: { lastUserText: "Fix issue #(none)" }, reply: reply(text("Fixed by hand.")) },
        ],
      });
      const url = `${h.server.url}/console/`;

      const ops = await openConsole(browser().browser, url, undefined, {
        authorization: `Bearer ${TOKEN.ops}`,
      });
      const fix = ops.page.locator('li[data-trigger="fix"]');
      await fix.waitFor({ timeout: 30_000 });
      await expect(fix.locator(".trigger-times").textContent()).resolves.toBe(
        "Last: never · Next: —",
      );
      await fix.getByRole("button", { name: "Fire now" }).click();
      // The fired task opens in the task view and completes there.
      await ops.page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
      await ops.page.locator("#task-view", { hasText: "Fixed by hand." }).waitFor();
      await ops.page.locator("#trigger-note", { hasText: "fix: started, task" }).waitFor();
      // Listed under its trigger, through ListTasks with A2A-Task-Trigger.
      const listed = fix.locator(".trigger-tasks button[data-task]");
      await listed.first().waitFor({ timeout: 30_000 });
      const id = await listed.first().getAttribute("data-task");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await ops.page.locator(".trigger-times", { hasText: "started" }).waitFor({ timeout: 30_000 });
      await closeChecked(ops);

      const alice = await openConsole(browser().browser, url, undefined, {
        authorization: `Bearer ${TOKEN.alice}`,
      });
      const refused = await alice.page.waitForResponse((r) => r.url().endsWith("/triggers"));
      expect(refused.status()).toBe(403);
      await alice.page.locator("#task-list .empty, #task-list .conversation").first().waitFor();
      expect(await alice.page.locator("#triggers").isHidden()).toBe(true);
      await closeChecked(alice);
    },
    TIMEOUT,
  );
});
