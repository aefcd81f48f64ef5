/**
 * An operator answers a trigger task's permission prompt in the console (issue 51, docs/triggers.md
 * "Policy", docs/console.md): a signed webhook starts a task as `trigger:ask` with
 * `permissions: "operator"`; the scripted model writes outside the workspace, which asks a
 * permission; the operator signs in to the console, opens the task from the Triggers view, allows
 * it, and the task completes with the file written. Real headless Chromium, the real server,
 * runtime and scripted model, HTTP on 127.0.0.1.
 */
import { createHmac, randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  a2a,
  afterTool,
  openConsole,
  shared,
  startChromium,
  tokenEntries,
  writes,
} from "../support/harness/index.js";

const TIMEOUT = 180_000;
const SECRET_ENV = "A2A_TEST_CONSOLE_PERMISSION_SECRET";
const SECRET = "console-permission-secret-1";
const OPS = "ops-token-0123456789";
beforeAll(() => void (process.env[SECRET_ENV] = SECRET));
afterAll(() => void delete process.env[SECRET_ENV]);

const browser = shared(() => startChromium());

async function deliver(url: string, title: string): Promise<Response> {
  const body = JSON.stringify({
    action: "opened",
    issue: { number: 7, title, body: "", labels: [], author_association: "OWNER" },
    repository: { full_name: "octo/widgets" },
  });
  return fetch(`${url}/hooks/ask`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
}

describe("a trigger's permission prompt in the console", () => {
  it(
    "an operator opens the trigger's task from the Triggers view and allows its prompt",
    async () => {
      const h = await a2a({
        config: {
          server: { auth: { tokens: tokenEntries({ ops: OPS }) }, operators: ["ops"] },
          triggers: {
            ask: {
              kind: "webhook",
              verify: "github",
              secretEnv: SECRET_ENV,
              prompt: "{{issue.title}}",
              allowUnsandboxed: true,
              permissions: "operator",
            },
          },
        },
      });
      const outside = join(h.bench.sandbox.root, "outside", "report.txt");
      await mkdir(join(h.bench.sandbox.root, "outside"));
      h.bench.model.setRules([
        writes("Save the report", outside, "report\n"),
        afterTool(/created successfully/, "Saved the report."),
      ]);
      const res = await deliver(h.server.url, "Save the report");
      expect(res.status).toBe(202);
      const { taskId } = (await res.json()) as { taskId: string };

      const open = await openConsole(browser().browser, `${h.server.url}/console/`, undefined, {
        authorization: `Bearer ${OPS}`,
      });
      const { page } = open;
      const listed = page.locator(
        `li[data-trigger="ask"] .trigger-tasks button[data-task="${taskId}"]`,
      );
      await page
        .locator('li[data-trigger="ask"]')
        .getByRole("button", { name: "Show its tasks" })
        .click({ timeout: 30_000 });
      await listed.waitFor({ timeout: 30_000 });
      await listed.click();
      await page.locator(".permission-form button.allow").click({ timeout: 60_000 });
      await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
      await page
        .locator(".timeline", { hasText: "Saved the report." })
        .waitFor({ timeout: 30_000 });
      expect(await readFile(outside, "utf8")).toBe("report\n");

      await open.context.close();
      expect(open.foreign).toEqual([]);
      expect(open.errors).toEqual([]);
    },
    TIMEOUT,
  );
});
