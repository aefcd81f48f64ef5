/**
 * A server with workspaces, seen from its root: `/` and `/console/` list the workspaces with
 * their consoles' links (an HTML page in a real browser, JSON for `Accept: application/json`),
 * `/agents/<name>` redirects to `/agents/<name>/`, and the terminal client pointed at the root
 * says which workspaces there are and how to pick one.
 */
import { describe, expect, it } from "vitest";
import {
  openConsole,
  runCli,
  shared,
  startChromium,
  startTestBench,
} from "../support/harness/index.js";
import { start, twoWorkspaces } from "../support/a2a/workspaces.js";

// One server and one browser for the file: every test only reads (lists, redirects, cards).
const model = shared(() => startTestBench([]));
const served = shared(async () => start(model(), (await twoWorkspaces(model())).config));
const chromium = shared(startChromium);

describe("the root of a server with workspaces", () => {
  it("in a browser: / lists the workspaces, and a link opens that workspace's console", async () => {
    const server = served();
    const { page, context, foreign, errors } = await openConsole(
      chromium().browser,
      `${server.url}/`,
    );
    try {
      expect(await page.locator("h1").textContent()).toBe("claude-a2a: workspaces");
      const links = page.locator("li a");
      expect(await links.allTextContents()).toEqual(["api", "web"]);
      await links.filter({ hasText: "web" }).click();
      await page.waitForURL(`${server.url}/agents/web/console/`);
      // The workspace's own console, empty: it talks to that workspace's agent.
      await page
        .locator("#task-list .empty", { hasText: "No tasks yet" })
        .waitFor({ timeout: 30_000 });
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("in a browser: /console/ is the same list", async () => {
    const server = served();
    const { page, context } = await openConsole(chromium().browser, `${server.url}/console/`);
    try {
      const links = page.locator("li a");
      expect(await links.allTextContents()).toEqual(["api", "web"]);
      expect([
        await links.nth(0).getAttribute("href"),
        await links.nth(1).getAttribute("href"),
      ]).toEqual(["/agents/api/console/", "/agents/web/console/"]);
    } finally {
      await context.close();
    }
  });

  it("answers JSON to Accept: application/json, with each console's URL", async () => {
    const server = served();
    const res = await fetch(`${server.url}/`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { workspaces: { name: string; console: string }[] };
    expect(body.workspaces.map((w) => [w.name, w.console])).toEqual([
      ["api", `http://localhost:${server.port}/agents/api/console/`],
      ["web", `http://localhost:${server.port}/agents/web/console/`],
    ]);
  });

  it("redirects /agents/<name> to /agents/<name>/, and nothing else", async () => {
    const server = served();
    const bare = await fetch(`${server.url}/agents/api?x=1`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/agents/api/?x=1");
    // An unknown workspace is still unknown, not redirected.
    const unknown = await fetch(`${server.url}/agents/nope`, { redirect: "manual" });
    expect(unknown.status).toBe(404);
    // The card resolves from the slashed URL, as a client does.
    const card = await fetch(`${server.url}/agents/api/.well-known/agent-card.json`);
    expect(((await card.json()) as { name: string }).name).toBe("API agent");
  });

  it("the terminal client, given the root: names the workspaces and how to pick one", async () => {
    const server = served();
    const env = { XDG_CONFIG_HOME: model().sandbox.home };
    const root = await runCli(["tasks", "--url", server.url], { env });
    expect(root.code).toBe(1);
    expect(root.err).toBe(
      `claude-a2a: ${server.url} serves several workspaces, not one agent: api, web. ` +
        `Pick one with --workspace <name> (e.g. --workspace api) or its URL (--url ${server.url}/agents/api/).\n`,
    );
    const picked = await runCli(["tasks", "--url", server.url, "--workspace", "web"], { env });
    expect(picked).toEqual({ code: 0, out: "No tasks.\n", err: "" });
  });
});
