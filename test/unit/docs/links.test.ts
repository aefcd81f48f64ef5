/**
 * Every relative link and `#anchor` of the README and docs/ resolves: the file exists, and an
 * anchor is one of the target page's headings as GitHub slugs them. No external link is fetched.
 * Every repository path the pages quote in backticks (`src/…`, `test/…`, …) exists too: a module
 * that moved leaves no page pointing at its old place.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchors, isExternal, links } from "../../support/docs/markdown.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const anchorCache = new Map<string, Set<string>>();
const anchorsOf = (file: string): Set<string> => {
  let found = anchorCache.get(file);
  if (found === undefined) {
    found = anchors(readFileSync(join(root, file), "utf8"));
    anchorCache.set(file, found);
  }
  return found;
};

/** What is wrong with one link of `page`, or undefined when it resolves. */
function problem(page: string, target: string): string | undefined {
  const hash = target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = path === "" ? page : relative(root, join(root, dirname(page), path));
  if (file.startsWith("..")) return `${target} leaves the repository`;
  if (!existsSync(join(root, file))) return `${target}: no file ${file}`;
  if (anchor === undefined || !file.endsWith(".md")) return undefined;
  return anchorsOf(file).has(anchor) ? undefined : `${target}: ${file} has no heading #${anchor}`;
}

/** Where a quoted path is a repository path: it starts with one of these top-level folders. */
const REPO_PATH = /^(?:src|test|docs|bench|scripts|console|\.ci)\//;
/** A pattern or a placeholder (`src/a2a/*`, `docs/<topic>.md`), not one path. */
const NOT_ONE_PATH = /[*<>{}…]|\.\.\./;
/**
 * Paths ARCHITECTURE.md names as where a feature of this round goes before it exists (each
 * leaves this list when its feature lands).
 */
const PLANNED = new Set<string>();

/** The backticked repository paths of a page outside its fenced blocks, with their lines. */
function quotedPaths(markdown: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const [, quoted = ""] of text.matchAll(/`([^`\s]+)`/g)) {
      if (!REPO_PATH.test(quoted) || NOT_ONE_PATH.test(quoted)) continue;
      // `src/x.ts:42` and `docs/a.md#b` name the file.
      found.push({ path: quoted.replace(/[:#].*$/, ""), line: i + 1 });
    }
  });
  return found;
}

describe("the docs' quoted paths", () => {
  it.each(pages)("%s: every backticked repository path exists", (page) => {
    const missing = quotedPaths(readFileSync(join(root, page), "utf8"))
      .filter(({ path }) => !PLANNED.has(path) && !existsSync(join(root, path)))
      .map(({ path, line }) => `${page}:${line}: ${path}`);
    expect(missing).toEqual([]);
  });

  it("finds quoted paths, not patterns, placeholders or fenced commands", () => {
    const page = [
      "See `src/a.ts:12`, `docs/b.md#x` and `test/c/`, not `src/*.ts`, `docs/<topic>.md`,",
      "`npm test` or `src/a2a/…`.",
      "```sh",
      "echo `src/fenced.ts`",
      "```",
    ].join("\n");
    expect(quotedPaths(page)).toEqual([
      { path: "src/a.ts", line: 1 },
      { path: "docs/b.md", line: 1 },
      { path: "test/c/", line: 1 },
    ]);
  });
});

describe("the docs' links", () => {
  it.each(pages)("%s: every relative link and anchor resolves", (page) => {
    const broken = links(readFileSync(join(root, page), "utf8"))
      .filter((l) => !isExternal(l.target))
      .flatMap((l) => {
        const why = problem(page, l.target);
        return why === undefined ? [] : [`${page}:${l.line}: ${why}`];
      });
    expect(broken).toEqual([]);
  });

  it("checks the pages it should", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/README.md"]));
  });
});
