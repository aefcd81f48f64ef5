import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lastLineMatching } from "../../../src/claude/transcript-tail.js";
import { defaultUsageBaselineLoader } from "../../../src/claude/usage-baseline.js";

const root = mkdtempSync(join(tmpdir(), "claude-tail-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SESSION = "66666666-6666-4666-8666-666666666666";
const costState = (cost: number, sessionId = SESSION) =>
  JSON.stringify({ type: "cost-state", sessionId, totalCostUSD: cost, modelUsage: {} });
const filler = (i: number) =>
  JSON.stringify({ type: "assistant", uuid: `a${i}`, message: { content: "x".repeat(40 + i) } });

function transcript(name: string, lines: string[], trailer = "\n"): string {
  const path = join(root, name);
  writeFileSync(path, lines.join("\n") + trailer);
  return path;
}

const parse = (line: string) => {
  try {
    const v = JSON.parse(line) as { totalCostUSD?: number; sessionId?: string };
    return v.sessionId === SESSION ? v.totalCostUSD : undefined;
  } catch {
    return undefined;
  }
};

describe("lastLineMatching: the last record of a kind, read from the end", () => {
  const lines = [
    costState(0.1),
    ...Array.from({ length: 50 }, (_, i) => filler(i)),
    costState(0.2),
    ...Array.from({ length: 50 }, (_, i) => filler(100 + i)),
    costState(9, "another-session"),
    filler(999),
  ];
  const path = transcript("many.jsonl", lines, "\n{torn");

  it.each([7, 64, 1000, 1 << 20])("finds it whatever the window (%i bytes)", async (window) => {
    expect(await lastLineMatching(path, '"cost-state"', parse, window)).toBe(0.2);
  });

  it("gives undefined when no line is taken, or there is no file", async () => {
    const none = transcript("none.jsonl", [filler(1), filler(2)]);
    expect(await lastLineMatching(none, '"cost-state"', parse, 16)).toBeUndefined();
    expect(await lastLineMatching(join(root, "absent"), "x", parse)).toBeUndefined();
  });

  it("looks no further back than its limit", async () => {
    const far = transcript("far.jsonl", [
      costState(0.5),
      ...Array.from({ length: 40 }, (_, i) => filler(i)),
    ]);
    expect(await lastLineMatching(far, '"cost-state"', parse, 64, 1024)).toBeUndefined();
    expect(await lastLineMatching(far, '"cost-state"', parse, 64, 1 << 20)).toBe(0.5);
  });

  it("does not parse the lines that lack the marker", async () => {
    const seen: string[] = [];
    await lastLineMatching(path, '"cost-state"', (line) => void seen.push(line), 64);
    expect(seen.length).toBe(3);
    expect(seen.every((l) => l.includes('"cost-state"'))).toBe(true);
  });
});

describe("defaultUsageBaselineLoader", () => {
  it("reads the last cost-state of the session's transcript under the child's config dir", async () => {
    const configDir = join(root, "config");
    const dir = join(configDir, "projects", "-w");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${SESSION}.jsonl`),
      [costState(0.1), filler(1), costState(0.3), filler(2)].join("\n") + "\n",
    );
    const env = { CLAUDE_CONFIG_DIR: configDir };
    expect(await defaultUsageBaselineLoader(SESSION, { cwd: "/w", env })).toEqual({
      costUsd: 0.3,
      models: {},
    });
    expect(
      await defaultUsageBaselineLoader("77777777-7777-4777-8777-777777777777", { cwd: "/w", env }),
    ).toBeUndefined();
  });
});
