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

/** The layer table, bottom first: one table for the lint and this test (eslint.config.js). */
const ESLINT_CONFIG: string = new URL("../../eslint.config.js", import.meta.url).href;
const { LAYERS } = (await import(ESLINT_CONFIG)) as { LAYERS: readonly (readonly string[])[] };

const sources = files(SRC).filter((f) => f.endsWith(".ts"));

/** The relative imports of `file` (type-only ones too) that name an existing source file. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts")))
    .filter((target) => existsSync(target));
}

/** The module a source file belongs to: its top folder under src/, or `cli` for src/cli.ts. */
const moduleOf = (file: string): string => {
  const [top = ""] = relative(SRC, file).split("/");
  return top.replace(/\.ts$/, "");
};

const rank = (module: string): number => LAYERS.findIndex((layer) => layer.includes(module));

/**
 * The folders of src/a2a/, bottom first (docs/ARCHITECTURE.md): a folder imports only folders of
 * a lower row. The leaves; the controls and the task's outlet; one task; what a new task's
 * message may ask; the executor that makes tasks; the request handler's layers at the SDK's edge.
 */
const A2A_LAYERS: readonly (readonly string[])[] = [
  ["card", "content", "interaction", "push"],
  ["control", "channel"],
  ["task"],
  ["admission"],
  ["routing"],
  ["handler"],
];

const a2aRank = (folder: string): number => A2A_LAYERS.findIndex((row) => row.includes(folder));

const lineCount = (f: string): number => {
  const text = readFileSync(f, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
};

/** No file of `paths` (under `root`) over 400 lines, at most 5 over 300, each with its reason. */
function expectSmallFiles(root: string, paths: readonly string[]): void {
  const sized = paths.map((f) => ({ file: relative(root, f), lines: lineCount(f), path: f }));
  expect(sized.filter((s) => s.lines > 400).map((s) => `${s.file}: ${s.lines}`)).toEqual([]);
  const long = sized.filter((s) => s.lines > 300);
  expect(long.length, long.map((s) => s.file).join(", ")).toBeLessThanOrEqual(5);
  // The reason opens the file, or the doc comment of its one big class.
  const reason = /Longer than ~300 lines on purpose: |Why it is over 300 lines: /;
  const unexplained = long.filter((s) => !reason.test(readFileSync(s.path, "utf8")));
  expect(unexplained.map((s) => s.file)).toEqual([]);
}

describe("the src/ tree", () => {
  it("has no file over 400 lines, and at most 5 over 300, each with its reason written", () => {
    expectSmallFiles(SRC, sources);
  });

  it("holds only folders and the one entry file, src/cli.ts", () => {
    const loose = readdirSync(SRC).filter((n) => !statSync(join(SRC, n)).isDirectory());
    expect(loose).toEqual(["cli.ts"]);
  });

  it("places every module in one layer of the table (eslint.config.js LAYERS)", () => {
    const modules = [...new Set(sources.map(moduleOf))].sort();
    expect(modules.filter((m) => rank(m) < 0)).toEqual([]);
    expect(LAYERS.flat().sort()).toEqual(modules);
  });

  it("has no import that runs back up the layers (or across one), type-only imports included", () => {
    const upward = sources.flatMap((file) =>
      importsOf(file)
        .filter((target) => moduleOf(target) !== moduleOf(file))
        .filter((target) => rank(moduleOf(target)) >= rank(moduleOf(file)))
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
    );
    expect(upward).toEqual([]);
  });

  it("keeps the wire contract (src/contract/) a leaf that imports nothing of ours", () => {
    const outside = sources
      .filter((file) => moduleOf(file) === "contract")
      .flatMap((file) => importsOf(file).map((target) => [file, target] as const))
      .filter(([, target]) => moduleOf(target) !== "contract")
      .map(([file, target]) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    expect(outside).toEqual([]);
    expect(sources.filter((file) => moduleOf(file) === "contract").length).toBeGreaterThan(10);
  });

  it("builds the request handler from decorators: no request handler extends another", () => {
    // A layer extends the pass-through `HandlerLayer` only (src/a2a/handler/handler-layer.ts) and
    // reaches the layer below through `inner`; src/app/request-stack.ts lists the stack.
    const classes = sources.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/class\s*(\w*)\s+extends\s+([\w.]+)/g)].map(
        ([, name = "", base = ""]) => ({ file: relative(SRC, file), name, base }),
      ),
    );
    const handlers = new Set(classes.filter((c) => c.base === "HandlerLayer").map((c) => c.name));
    for (const file of sources) {
      const text = readFileSync(file, "utf8");
      for (const [, name = ""] of text.matchAll(
        /class\s+(\w+)[^{]*implements[^{]*A2ARequestHandler/g,
      )) {
        handlers.add(name);
      }
    }
    const tower = classes
      .filter((c) => /Handler$/.test(c.base) || handlers.has(c.base.split(".").pop() ?? ""))
      .map((c) => `${c.file}: ${c.name || "(anonymous)"} extends ${c.base}`);
    expect(tower).toEqual([]);
    expect(handlers.size).toBeGreaterThanOrEqual(7);
  });

  it("holds src/a2a/'s folders to their inner order: no import runs back up (A2A_LAYERS)", () => {
    const A2A = join(SRC, "a2a");
    const folderOf = (file: string): string => relative(A2A, file).split("/")[0] ?? "";
    const inA2a = (file: string): boolean => !relative(A2A, file).startsWith("..");
    const folders = readdirSync(A2A).filter((n) => statSync(join(A2A, n)).isDirectory());
    expect(folders.filter((f) => a2aRank(f) < 0)).toEqual([]);
    const upward = sources
      .filter((file) => inA2a(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => inA2a(target) && folderOf(target) !== folderOf(file))
          .filter((target) => a2aRank(folderOf(target)) >= a2aRank(folderOf(file)))
          .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
      );
    expect(upward).toEqual([]);
  });

  it("keeps src/a2a/ in sub-domain folders, no loose file", () => {
    const a2a = join(SRC, "a2a");
    const top = readdirSync(a2a).filter((n) => !statSync(join(a2a, n)).isDirectory());
    expect(top).toEqual([]);
  });

  it("reaches the Claude provider from outside src/claude/ only through its public face, claude/index.ts", () => {
    const face = join(SRC, "claude", "index.ts");
    const behind = sources
      .filter((file) => moduleOf(file) !== "claude")
      .flatMap((file) => importsOf(file).map((target) => [file, target] as const))
      .filter(([, target]) => moduleOf(target) === "claude" && target !== face)
      .map(([file, target]) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    expect(behind).toEqual([]);
  });

  it("has no import cycle, type-only imports included (the lint's no-cycle skips those)", () => {
    const edges = new Map<string, string[]>();
    for (const file of sources) edges.set(file, importsOf(file));
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

describe("the console/ tree (the web console)", () => {
  it("has no file over 400 lines, and at most 5 over 300, each with its reason written (the bars of src/)", () => {
    const CONSOLE = new URL("../../console/", import.meta.url).pathname;
    const scripts = files(CONSOLE).filter((f) => f.endsWith(".ts"));
    expect(scripts.length).toBeGreaterThan(30);
    expectSmallFiles(CONSOLE, scripts);
  });
});
