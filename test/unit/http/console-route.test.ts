/** The web console's static route: its files, its headers, and an honest answer when unbuilt. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_PATH, consoleRouter } from "../../../src/http/console-route.js";

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function serve(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-console-route-"));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  const app = express();
  app.use(CONSOLE_PATH, consoleRouter(dir));
  const s = app.listen(0, "127.0.0.1");
  server = s;
  await new Promise<void>((resolve) => s.once("listening", () => resolve()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe("the /console route", () => {
  it("serves the page with a same-origin-only CSP, and redirects /console to /console/", async () => {
    const url = await serve({ "index.html": "<!doctype html><title>x</title>", "app.js": "1" });
    const page = await fetch(`${url}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>x</title>");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${url}/console/app.js`)).headers.get("content-type")).toMatch(
      /javascript/,
    );
    const bare = await fetch(`${url}/console`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/console/");
  });

  it("says how to build it when dist/console/ is missing, and 404s an unknown file", async () => {
    const url = await serve({});
    const page = await fetch(`${url}/console/`);
    expect(page.status).toBe(404);
    expect(await page.text()).toBe(
      "The web console is not built: run `npm run build` (npm start builds it when it is missing).",
    );
    await writeFile(join(dir ?? "", "index.html"), "x");
    const missing = await fetch(`${url}/console/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("No console file /nope.js");
  });
});
