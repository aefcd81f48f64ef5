import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
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

  it("has no import cycle, type-only imports included (the lint's no-cycle skips those)", () => {
    const edges = new Map<string, string[]>();
    for (const file of sources) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map((i) => i.fileName)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts")))
        .filter((target) => existsSync(target));
      edges.set(file, targets);
    }
    // Tarjan's strongly connected components: any with two or more files is a cycle.
    let index = 0;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      order.set(v, index);
      low.set(v, index++);
      stack.push(v);
      onStack.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!order.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v) ?? 0, order.get(w) ?? 0));
        }
      }
      if (low.get(v) !== order.get(v)) return;
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(relative(SRC, w));
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    };
    for (const file of sources) if (!order.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
