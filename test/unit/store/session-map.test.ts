import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import {
  SESSIONS_FILE,
  SessionMap,
  type SessionMapLogger,
} from "../../../src/store/session-map.js";

let dir: string;
let warnings: { obj: Record<string, unknown>; msg: string }[];
const logger: SessionMapLogger = { warn: (obj, msg) => warnings.push({ obj, msg }) };
/** The map stores a key as it is given: these tests use short ones, not real conversation keys. */
const k = (key: string) => key as ConversationKey;
const fixedNow = () => new Date("2025-01-02T03:04:05.678Z");

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-sessions-"));
  warnings = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () => SessionMap.open({ cwd: dir, logger, now: fixedNow });
const claudeDir = () => join(dir, ".claude");
const readStored = async () =>
  JSON.parse(await readFile(join(dir, SESSIONS_FILE), "utf8")) as {
    version: number;
    sessions: Record<string, { sessionId: string; updatedAt: string }>;
  };

describe("SessionMap", () => {
  it("starts empty without a file and creates .claude/ on the first write", async () => {
    const map = await open();
    expect(map.size).toBe(0);
    await map.set(k("ctx-1"), "sess-1");
    expect(await readStored()).toEqual({
      version: 1,
      sessions: { "ctx-1": { sessionId: "sess-1", updatedAt: "2025-01-02T03:04:05.678Z" } },
    });
  });

  it("round-trips through a restart", async () => {
    const first = await open();
    await first.set(k("ctx-1"), "sess-1");
    await first.set(k("ctx-2"), "sess-2");
    await first.set(k("ctx-1"), "sess-1b");
    expect(await first.delete(k("ctx-2"))).toBe(true);
    expect(await first.delete(k("never-set"))).toBe(false);

    const second = await open();
    expect(second.get(k("ctx-1"))).toEqual({
      sessionId: "sess-1b",
      updatedAt: "2025-01-02T03:04:05.678Z",
    });
    expect(second.get(k("ctx-2"))).toBeUndefined();
    expect([...second.all().keys()]).toEqual(["ctx-1"]);
  });

  it("keeps keys such as __proto__ and constructor through a restart, like any other", async () => {
    const map = await open();
    await map.set(k("__proto__"), "sess-p");
    await map.set(k("constructor"), "sess-c");
    await map.set(k('["anonymous","__proto__"]'), "sess-a");
    const again = await open();
    expect(again.size).toBe(3);
    expect(again.get(k("__proto__"))?.sessionId).toBe("sess-p");
    expect(again.get(k("constructor"))?.sessionId).toBe("sess-c");
    expect(again.get(k('["anonymous","__proto__"]'))?.sessionId).toBe("sess-a");
    expect(warnings).toEqual([]);
  });

  it("persists every one of many concurrent sets", async () => {
    const map = await open();
    const ids = Array.from({ length: 50 }, (_, i) => `ctx-${i}`);
    await Promise.all(ids.map((id) => map.set(k(id), `sess-of-${id}`)));
    const stored = await readStored();
    expect(Object.keys(stored.sessions).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(stored.sessions[id]?.sessionId).toBe(`sess-of-${id}`);
  });

  it("keeps the last value when sets and deletes interleave with writes in flight", async () => {
    const map = await open();
    const first = map.set(k("ctx"), "a");
    await Promise.resolve(); // let the first write start before the next changes
    const rest = [
      map.set(k("ctx"), "b"),
      map.set(k("other"), "x"),
      map.delete(k("other")),
      map.set(k("ctx"), "c"),
    ];
    await Promise.all([first, ...rest]);
    expect((await readStored()).sessions).toEqual({
      ctx: { sessionId: "c", updatedAt: "2025-01-02T03:04:05.678Z" },
    });
    expect((await open()).get(k("ctx"))?.sessionId).toBe("c");
  });

  it("never leaves a temp file behind", async () => {
    const map = await open();
    await Promise.all([map.set(k("a"), "1"), map.set(k("b"), "2")]);
    await map.set(k("c"), "3");
    await map.delete(k("a"));
    await map.flush();
    expect(await readdir(claudeDir())).toEqual(["claude-a2a.sessions.json"]);
  });

  it("moves a corrupt file aside, warns, and starts empty", async () => {
    await mkdir(claudeDir(), { recursive: true });
    await writeFile(join(dir, SESSIONS_FILE), '{"version":1,"sessions":{"ctx"');
    const map = await open();
    expect(map.size).toBe(0);

    const aside = "claude-a2a.sessions.json.corrupt-2025-01-02T03-04-05-678Z";
    expect(await readdir(claudeDir())).toEqual([aside]);
    expect(await readFile(join(claudeDir(), aside), "utf8")).toBe('{"version":1,"sessions":{"ctx"');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.obj).toMatchObject({
      file: join(dir, SESSIONS_FILE),
      movedTo: join(claudeDir(), aside),
    });

    await map.set(k("ctx"), "fresh");
    expect((await readStored()).sessions.ctx?.sessionId).toBe("fresh");
  });

  it("treats valid JSON of the wrong shape as corrupt too", async () => {
    await mkdir(claudeDir(), { recursive: true });
    await writeFile(join(dir, SESSIONS_FILE), JSON.stringify({ "ctx-1": "sess-1" }));
    const map = await open();
    expect(map.size).toBe(0);
    expect(warnings).toHaveLength(1);
    expect((await readdir(claudeDir())).some((f) => f.includes(".corrupt-"))).toBe(true);
  });

  it("rejects a failed write without leaving a temp file, and recovers on the next one", async () => {
    const map = await open();
    // A directory where the file should be makes the rename fail after the temp file is written.
    await mkdir(join(dir, SESSIONS_FILE), { recursive: true });
    await expect(map.set(k("ctx"), "a")).rejects.toThrow();
    expect((await readdir(claudeDir())).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    await rm(join(dir, SESSIONS_FILE), { recursive: true });
    await map.set(k("other"), "b");
    expect(Object.keys((await readStored()).sessions).sort()).toEqual(["ctx", "other"]);
  });

  it("refuses empty ids", async () => {
    const map = await open();
    await expect(map.set(k(""), "s")).rejects.toThrow(TypeError);
    await expect(map.set(k("c"), "")).rejects.toThrow(TypeError);
    expect(map.size).toBe(0);
  });
});

describe("SessionMap: a link a sandboxed command put in the workspace", () => {
  const outsideMap = JSON.stringify({
    version: 1,
    sessions: { ctx: { sessionId: "theirs", updatedAt: "2025-01-01T00:00:00.000Z" } },
  });
  let outside: string;
  beforeEach(async () => {
    outside = await mkdtemp(join(tmpdir(), "claude-a2a-sessions-outside-"));
    await writeFile(join(outside, "claude-a2a.sessions.json"), outsideMap);
  });
  afterEach(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  it("is not read at the file's name, and the next write replaces it, not what it names", async () => {
    await mkdir(claudeDir());
    await symlink(join(outside, "claude-a2a.sessions.json"), join(dir, SESSIONS_FILE));
    const map = await open();
    expect(map.size).toBe(0);
    expect(warnings[0]?.obj).toEqual({ kind: "link", path: SESSIONS_FILE });
    await map.set(k("mine"), "s");
    expect(await readFile(join(outside, "claude-a2a.sessions.json"), "utf8")).toBe(outsideMap);
    expect((await lstat(join(dir, SESSIONS_FILE))).isFile()).toBe(true);
  });

  it("at .claude is neither read nor written through", async () => {
    await symlink(outside, claudeDir());
    const map = await open();
    expect(map.size).toBe(0);
    await expect(map.set(k("mine"), "s")).rejects.toMatchObject({ kind: "link", path: ".claude" });
    expect(await readdir(outside)).toEqual(["claude-a2a.sessions.json"]);
    expect(await readFile(join(outside, "claude-a2a.sessions.json"), "utf8")).toBe(outsideMap);
  });
});
