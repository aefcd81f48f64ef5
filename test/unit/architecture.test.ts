import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/** The shape docs/ARCHITECTURE.md promises, checked on the tree itself. */
const SRC = new URL("../../src/", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const sources = files(SRC).filter((f) => f.endsWith(".ts"));

describe("the src/ tree", () => {
  it("has no file over ~300 lines without a written reason at its top", () => {
    const long = sources
      .filter((f) => readFileSync(f, "utf8").split("\n").length > 330)
      // The reason opens the file, or the doc comment of its one big class.
      .filter(
        (f) =>
          !/Longer than ~300 lines on purpose: |Why it is over 300 lines: /.test(
            readFileSync(f, "utf8"),
          ),
      )
      .map((f) => relative(SRC, f));
    expect(long).toEqual([]);
  });

  it("keeps src/a2a/ in sub-domain folders, each with an index.ts", () => {
    const a2a = join(SRC, "a2a");
    const top = readdirSync(a2a).filter((n) => !statSync(join(a2a, n)).isDirectory());
    expect(top).toEqual(["index.ts"]);
    for (const dir of readdirSync(a2a).filter((n) => statSync(join(a2a, n)).isDirectory())) {
      expect(readdirSync(join(a2a, dir)), dir).toContain("index.ts");
    }
  });
});
