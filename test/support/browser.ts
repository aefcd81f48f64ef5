/**
 * Headless Chromium for the web console's tests: the system package (`/usr/bin/chromium`, or
 * CHROMIUM_PATH), driven by playwright-core. The browser may reach loopback only: every other
 * request is aborted and recorded, so a test can assert the page made none.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Builds dist/console/ (esbuild, well under a second), so the test serves the sources it checks. */
export function buildConsole(): void {
  const script = fileURLToPath(new URL("../../scripts/build-console.js", import.meta.url));
  const r = spawnSync(process.execPath, [script], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the console did not build:\n${r.stderr}`);
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root (CI) Chromium needs --no-sandbox; the rest keeps it from phoning home.
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-domain-reliability",
      "--disable-sync",
      "--no-first-run",
      "--no-default-browser-check",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ],
  });
}

const LOOPBACK = /^(https?|wss?):\/\/127\.0\.0\.1(:\d+)?\//;

export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Requests to anything but loopback (aborted). */
  readonly foreign: string[];
  /** Uncaught exceptions of the page. */
  readonly errors: string[];
}

/** A fresh context (its own session storage) with a page at `url`, loopback only. */
export async function openConsole(
  browser: Browser,
  url: string,
  viewport = { width: 1280, height: 800 },
  /** Headers on every request, as a proxy in front of the server would add them. */
  extraHTTPHeaders?: Record<string, string>,
): Promise<ConsolePage> {
  const context = await browser.newContext({
    viewport,
    ...(extraHTTPHeaders && { extraHTTPHeaders }),
  });
  const foreign: string[] = [];
  const errors: string[] = [];
  await context.route("**/*", (route) => {
    const target = route.request().url();
    if (LOOPBACK.test(target) || target.startsWith("data:")) return route.continue();
    foreign.push(target);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  return { page, context, foreign, errors };
}

/** A directory for screenshots that outlives the test's sandbox (CI keeps it as an artifact). */
export async function screenshotDir(): Promise<string> {
  const dir = process.env.CONSOLE_SCREENSHOTS ?? join(tmpdir(), "claude-a2a-console-screenshots");
  await mkdir(dir, { recursive: true });
  return dir;
}
