/**
 * The documentation the tests hold to the code: the README and the pages of docs/. A test that
 * checks a table reads the one page that holds it; one that checks a text is quoted somewhere
 * reads the whole manual.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const DOCS_DIR = join(REPO_ROOT, "docs");

/** Pages of docs/ that are not the user's manual: notes for contributors, measurements. */
const NOT_MANUAL = new Set([
  "ARCHITECTURE.md",
  "BENCHMARKS.md",
  "CONFORMANCE.md",
  "provider-design.md",
]);

/** One page of docs/, e.g. `docPage("protocol.md")`. */
export function docPage(name: string): string {
  return readFileSync(join(DOCS_DIR, name), "utf8");
}

/** The manual's files, relative to the repository: README.md, then docs/ in name order. */
export function manualFiles(): string[] {
  const pages = readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith(".md") && !NOT_MANUAL.has(f))
    .sort();
  return ["README.md", ...pages.map((f) => `docs/${f}`)];
}

/** The whole manual as one text, each file after a blank line. */
export function manual(): string {
  return manualFiles()
    .map((f) => readFileSync(join(REPO_ROOT, f), "utf8"))
    .join("\n\n");
}
