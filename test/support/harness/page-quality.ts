/**
 * Quality checks of a page in the browser: axe-core's accessibility rules, the main thread's long
 * tasks (the Long Tasks API), the page's own performance marks, and moving by keyboard alone.
 * Scripts run in the page as text: this module is type-checked without the DOM's types.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** One axe-core rule the page breaks, and where (CSS selectors of the first few nodes). */
export interface Violation {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly nodes: readonly string[];
}

let axeSource: Promise<string> | undefined;

/**
 * axe-core's serious and critical violations on the page as it is now (every rule of its
 * default set: WCAG 2.x A and AA, and best practices). axe's source is evaluated in the page
 * through the driver (as `@axe-core/playwright` does), so the page's Content-Security-Policy,
 * which refuses any script of another origin or inline, is untouched.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if ((await page.evaluate("typeof window.axe")) === "undefined")
    await page.evaluate(await axeSource);
  return page.evaluate<Violation[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
      }));
  })()`);
}

/**
 * Records the main thread's long tasks (over 50 ms, the Long Tasks API) from now on; `durations`
 * reads them. Throws when the browser does not report long tasks: a check that cannot see them
 * must not pass.
 */
export async function watchLongTasks(page: Page): Promise<{ durations(): Promise<number[]> }> {
  const supported = await page.evaluate<boolean>(
    `PerformanceObserver.supportedEntryTypes.includes("longtask")`,
  );
  if (!supported) throw new Error("this browser does not report long tasks");
  await page.evaluate(`{
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: "longtask" });
  }`);
  return {
    // The observer's callback runs after a task ends: a frame later, what ended is in the list.
    durations: async () => {
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))");
      return page.evaluate<number[]>("window.__longTasks.slice()");
    },
  };
}

/** When the page set its mark `name`, in ms since the navigation started; undefined: not yet. */
export function markTime(page: Page, name: string): Promise<number | undefined> {
  return page.evaluate<number | undefined>(
    `performance.getEntriesByName(${JSON.stringify(name)}, "mark")[0]?.startTime`,
  );
}

/** Whether the focused element matches `selector`. */
export function focusIs(page: Page, selector: string): Promise<boolean> {
  return page.evaluate<boolean>(
    `document.activeElement?.matches(${JSON.stringify(selector)}) === true`,
  );
}

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
export async function tabTo(page: Page, selector: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await focusIs(page, selector)) return;
  }
  const at = await page.evaluate<string>(
    `(document.activeElement?.tagName ?? "") + "." + (document.activeElement?.className ?? "")`,
  );
  throw new Error(`no ${selector} within ${max} Tabs (the focus is on ${at})`);
}
