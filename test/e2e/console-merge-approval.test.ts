/**
 * Approve / Reject a merge from the web console (issue 50 items 6-7, docs/console.md "Delivering
 * work"), in a real headless Chromium against the real server, runtime and scripted model, with
 * real git: a green delivery with the target `merge` asks (`merge_approval`); the page shows the
 * summary, the merge and the proof of work; Approve merges, Reject with a reason declines (the
 * task completes, the branch kept). Needs the server side of `merge` (the merge step).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TaskState } from "@a2a-js/sdk";
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
  type ParsedRequest,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { initRepository, workingDir } from "../support/harness/git.js";

const browser = shared(() => startChromium());

const CONFIG = {
  claude: {
    isolation: "worktree",
    delivery: {
      checks: [{ name: "present", command: "test -f done.txt", timeoutSeconds: 120 }],
      target: "merge",
      allowedTargets: ["merge"],
    },
  },
} satisfies ConfigInput;

const rules = [
  {
    name: "write",
    match: { lastUserText: /Do the work/, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(toolUse("Write", { file_path: join(workingDir(req), "done.txt"), content: "ok\n" })),
  },
  { name: "done", match: { toolResult: /done\.txt/ }, reply: reply(text("Wrote done.txt.")) },
];

/** Starts the delivery and opens its task in the page once it asks for the merge. */
async function asked(
  h: A2AHarness,
): Promise<{ id: string; page: Page; close: () => Promise<void> }> {
  const stream = watch(
    h.client.sendMessageStream(
      sendRequest({ ...userMessage("Do the work"), metadata: { deliver: true } }),
    ),
  );
  const first = await stream.first((e) => e.payload?.$case === "task");
  const id = first.payload?.$case === "task" ? first.payload.value.id : "";
  const open = await openConsole(browser().browser, `${h.server.url}/console/#task=${id}`);
  const { page } = open;
  await page.locator(".merge-form").waitFor({ timeout: 60_000 });
  return {
    id,
    page,
    close: async () => {
      await open.context.close();
      expect(open.foreign).toEqual([]);
      expect(open.errors).toEqual([]);
    },
  };
}

async function endOf(h: A2AHarness, id: string) {
  return h.client.getTask({ tenant: "", id, historyLength: undefined });
}

const start = () =>
  a2a({ fetchImpl: withControl, config: CONFIG, rules, beforeStart: (cwd) => initRepository(cwd) });

describe("the console approves a merge", () => {
  it("shows the summary, the merge and the proof; Approve merges", async () => {
    const h = await start();
    const { id, page, close } = await asked(h);
    const form = page.locator(".merge-form");
    expect(await form.locator(".merge-summary").textContent()).toMatch(/^Merge claude-a2a\//);
    expect(await form.locator('.merge-facts [data-field="into"] dd').count()).toBe(1);
    expect(await form.locator("#merge-proof .check").getAttribute("data-result")).toBe("passed");
    // The caller may approve here: nothing says otherwise. The focus is on the form, not Approve.
    expect(await form.locator(".approver-note").count()).toBe(0);
    expect(await page.evaluate("document.activeElement?.matches('.merge-form')")).toBe(true);

    await form.locator("button.approve").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    const end = await endOf(h, id);
    expect(end.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(end.metadata?.delivery).toMatchObject({ merge: { outcome: "merged" } });
    expect(await page.locator(".entry.message.user p").allTextContents()).toContain("Allow");
    await close();
  }, 120_000);

  it("Reject with a reason declines: completed, the reason sent, nothing merged", async () => {
    const h = await start();
    const { id, page, close } = await asked(h);
    await page.locator("#merge-reason").fill("not before the release");
    await page.locator(".merge-form button.reject").click();
    await page.locator("#task-state", { hasText: "completed" }).waitFor({ timeout: 60_000 });
    const end = await endOf(h, id);
    expect(end.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(end.metadata?.delivery).toMatchObject({ merge: { outcome: "declined" } });
    const answers = end.history.flatMap((m) =>
      m.parts.flatMap((p) =>
        p.content?.$case === "data" &&
        (p.content.value as { kind?: unknown } | undefined)?.kind === "permission_response"
          ? [p.content]
          : [],
      ),
    );
    const answer = answers.at(-1);
    expect(answer).toEqual({
      $case: "data",
      value: { kind: "permission_response", decision: "deny", reason: "not before the release" },
    });
    expect(await page.locator(".entry.message.user p").allTextContents()).toContain(
      "Deny: not before the release",
    );
    await close();
  }, 120_000);
});
