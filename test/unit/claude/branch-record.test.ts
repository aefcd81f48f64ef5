import { mkdtemp, mkdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordBranchSync } from "../../../src/claude/branch-record.js";

/** A transcript entry chained to its parent, and the runtime's record of a plain resume's leaf. */
const entry = (uuid: string, parent: string | null, type = "assistant") =>
  JSON.stringify({ type, uuid, parentUuid: parent, message: { content: "x" } });
const record = (leaf: string) => JSON.stringify({ type: "last-prompt", leafUuid: leaf });

/** Rewound to a1: p2's branch recorded as its process closed, p3's never (killed). */
const stale = [
  entry("p1", null, "user"),
  entry("a1", "p1"),
  record("a1"),
  entry("p2", "a1", "user"),
  entry("a2", "p2"),
  record("a2"),
  entry("p3", "a1", "user"),
  entry("a3", "p3"),
].join("\n");

let configDir: string;
const where = () => ({ cwd: "/w", env: { CLAUDE_CONFIG_DIR: configDir } });
const file = (project: string) => join(configDir, "projects", project, "s-1.jsonl");

async function put(project: string, text: string): Promise<void> {
  await mkdir(join(configDir, "projects", project), { recursive: true });
  await writeFile(file(project), text);
}

beforeEach(async () => {
  configDir = await mkdtemp(join(tmpdir(), "claude-a2a-branch-"));
});
afterEach(async () => {
  await rm(configDir, { recursive: true, force: true });
});

describe("recordBranchSync: the runtime's record names the rewound branch before a resume", () => {
  it("writes the record the killed process never wrote, naming the branch's end", async () => {
    await put("-w", `${stale}\n`);
    expect(recordBranchSync(where(), "s-1", "p3")).toEqual({ kind: "unrecorded", leaf: "a3" });
    const lines = (await readFile(file("-w"), "utf8")).trimEnd().split("\n");
    expect(JSON.parse(lines.at(-1) as string)).toEqual({
      type: "last-prompt",
      leafUuid: "a3",
      sessionId: "s-1",
    });
    // Once is enough: now it is recorded, and nothing more is written.
    expect(recordBranchSync(where(), "s-1", "p3")).toEqual({ kind: "recorded" });
    expect((await readFile(file("-w"), "utf8")).trimEnd().split("\n")).toHaveLength(lines.length);
  });

  it("ends a line the kill tore before its own", async () => {
    await put("-w", `${stale}\n{"type":"assist`);
    recordBranchSync(where(), "s-1", "p3");
    const lines = (await readFile(file("-w"), "utf8")).split("\n");
    expect(lines.at(-3)).toBe('{"type":"assist');
    expect(lines.at(-2)).toContain('"leafUuid":"a3"');
    expect(lines.at(-1)).toBe("");
  });

  it("leaves a recorded branch, and an unknown session, alone", async () => {
    const recorded = `${stale}\n${record("a3")}\n`;
    await put("-w", recorded);
    expect(recordBranchSync(where(), "s-1", "p3")).toEqual({ kind: "recorded" });
    expect(await readFile(file("-w"), "utf8")).toBe(recorded);
    expect(recordBranchSync(where(), "s-2", "p3")).toEqual({ kind: "unwritten" });
  });

  it("of two copies (a fork's under another worktree), writes the one written last", async () => {
    await put("-old", `${stale}\n`);
    await put("-new", `${stale}\n`);
    await utimes(file("-old"), new Date(1000), new Date(1000));
    recordBranchSync(where(), "s-1", "p3");
    expect(await readFile(file("-old"), "utf8")).toBe(`${stale}\n`);
    expect(await readFile(file("-new"), "utf8")).toContain('"leafUuid":"a3"');
  });
});
