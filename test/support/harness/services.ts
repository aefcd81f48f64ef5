/** Postgres and Chromium as closeable pieces a scope can own. */
import type { Browser } from "playwright-core";
import { buildConsole, launchBrowser } from "../browser.js";
import { startTestPostgres, type TestPostgres } from "../postgres.js";

export { openConsole, screenshotDir, type ConsolePage } from "../browser.js";

export interface Postgres extends TestPostgres {
  close(): Promise<void>;
}

/** A real PostgreSQL server (see `startTestPostgres`); `close()` drops its databases and stops it. */
export async function startPostgres(): Promise<Postgres> {
  const pg = await startTestPostgres();
  return { ...pg, close: () => pg.stop() };
}

export interface Chromium {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** The console built from the sources, and a headless Chromium to load it in. */
export async function startChromium(): Promise<Chromium> {
  buildConsole();
  const browser = await launchBrowser();
  return { browser, close: () => browser.close() };
}
