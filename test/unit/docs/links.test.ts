/**
 * Every relative link and `#anchor` of the README and docs/ resolves: the file exists, and an
 * anchor is one of the target page's headings as GitHub slugs them. No external link is fetched.
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
