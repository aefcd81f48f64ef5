/**
 * The session map's cases, a case group of the shared store suite (`test/support/store-cases.ts`)
 * run against each place a backend keeps the map: the task store's SQLite database, PostgreSQL,
 * and the memory store's file of its own (`session-map-targets.ts`).
 */
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { ConversationKey } from "../../src/identity/conversation.js";
import {
  SESSIONS_FILE,
  type SessionMap,
  type SessionMapLogger,
} from "../../src/store/session-map.js";

export interface MapOpenOptions {
  readonly logger?: SessionMapLogger;
  readonly instance?: string;
  readonly upgradeKey?: (key: string) => ConversationKey;
}

/** Where a map is kept, for one test at a time. */
export interface SessionMapTarget {
  /** A fresh empty store and workspace folder. */
  setup(): Promise<void>;
  /** Closes every map it opened and removes what `setup` made. */
  teardown(): Promise<void>;
  /** The workspace folder (its `.claude/` holds the map file of earlier versions). */
  cwd(): string;
  /** Opens the map (again: a restart). `instance` only where `instances` is true. */
  open(o?: MapOpenOptions): Promise<SessionMap>;
  /** Whether several instances' rows can share the store (a fleet's PostgreSQL, SQLite's table). */
  readonly instances: boolean;
  /** Makes every write of conversation `key`'s row fail inside the database, from now on. */
  failWritesOf(key: string): Promise<void>;
}

const k = (key: string) => key as ConversationKey;
const NOW = "2025-01-02T03:04:05.678Z";

interface Line {
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

/** Registers the cases (in the caller's `describe`, which sets their timeout). */
export function sessionMapCases(target: SessionMapTarget): void {
  let warnings: Line[];
  let infos: Line[];
  const logger: SessionMapLogger = {
    warn: (obj, msg) => warnings.push({ obj, msg }),
    info: (obj, msg) => infos.push({ obj, msg }),
  };
  const open = (o: MapOpenOptions = {}) => target.open({ logger, ...o });
  const claudeDir = () => join(target.cwd(), ".claude");
  const writeSeed = async (sessions: Record<string, unknown>) => {
    await mkdir(claudeDir(), { recursive: true });
    await writeFile(join(target.cwd(), SESSIONS_FILE), JSON.stringify({ version: 1, sessions }));
  };

  beforeEach(async () => {
    warnings = [];
    infos = [];
    await target.setup();
  }, 60_000);
  afterEach(() => target.teardown(), 60_000);

  it("starts empty, and keeps sets, points and deletes through a restart", async () => {
    const first = await open();
    expect(first.size).toBe(0);
    await first.set(k("ctx-1"), "sess-1");
    await first.set(k("ctx-2"), "sess-2");
    await first.set(k("ctx-1"), "sess-1b");
    await first.point(k("fk"), "s-src", { resumeAt: "a-9", fork: true });
    await first.point(k("rk"), "s-r", { resumeAt: "a-1" });
    await first.ran(k("rk"), "prompt-1");
    expect(await first.delete(k("ctx-2"))).toBe(true);
    expect(await first.delete(k("never-set"))).toBe(false);
    await first.flush();

    const second = await open();
    expect(second.get(k("ctx-1"))?.sessionId).toBe("sess-1b");
    expect(second.get(k("ctx-2"))).toBeUndefined();
    expect(second.get(k("fk"))).toMatchObject({
      sessionId: "s-src",
      resumeAt: "a-9",
      fork: true,
    });
    expect(second.get(k("rk"))).toMatchObject({ resumeAt: "a-1", branch: "prompt-1" });
    expect(second.get(k("rk"))?.fork).toBeUndefined();
    expect([...second.all().keys()].sort()).toEqual(["ctx-1", "fk", "rk"]);
    expect(second.keys().sort()).toEqual(["ctx-1", "fk", "rk"]);
    await second.spend(k("rk"));
    expect((await open()).get(k("rk"))).toEqual({
      sessionId: "s-r",
      updatedAt: expect.any(String) as string,
    });
  });

  it("keeps keys such as __proto__ and constructor like any other", async () => {
    const map = await open();
    await map.set(k("__proto__"), "sess-p");
    await map.set(k("constructor"), "sess-c");
    await map.set(k('["anonymous","__proto__"]'), "sess-a");
    const again = await open();
    expect(again.size).toBe(3);
    expect(again.get(k("__proto__"))?.sessionId).toBe("sess-p");
    expect(again.get(k("constructor"))?.sessionId).toBe("sess-c");
    expect(warnings).toEqual([]);
  });

  it("stores every one of many concurrent changes, the last of each key winning", async () => {
    const map = await open();
    const ids = Array.from({ length: 60 }, (_, i) => `ctx-${i}`);
    const first = map.set(k("hot"), "a");
    await Promise.resolve(); // the first write starts before the next changes
    await Promise.all([
      first,
      ...ids.map((id) => map.set(k(id), `sess-of-${id}`)),
      map.set(k("hot"), "b"),
      map.set(k("other"), "x"),
      map.delete(k("other")),
      ...ids.slice(0, 20).map((id) => map.delete(k(id))),
      map.point(k("hot"), "c", { resumeAt: "m-1" }),
      map.set(k("hot"), "d"),
    ]);
    await map.flush();
    const again = await open();
    expect(again.all()).toEqual(map.all());
    expect(again.size).toBe(41);
    expect(again.get(k("hot"))).toMatchObject({ sessionId: "d" });
    expect(again.get(k("hot"))?.resumeAt).toBeUndefined();
    expect(again.get(k("ctx-0"))).toBeUndefined();
    expect(again.get(k("ctx-59"))?.sessionId).toBe("sess-of-ctx-59");
  });

  it("a write that fails in the database leaves the old row whole, and others go on", async () => {
    const map = await open();
    await map.point(k("bad"), "s-old", { resumeAt: "a-old" });
    await map.set(k("good"), "g-1");
    await target.failWritesOf("bad");
    await expect(map.set(k("bad"), "s-new")).rejects.toThrow();
    await expect(map.delete(k("bad"))).rejects.toThrow();
    await map.set(k("good"), "g-2");
    // A batch is one transaction: one failing row keeps every row of it.
    await map.set(k("batch"), "s-b");
    await map.flush();
    const again = await open();
    await expect(
      again.dropMany([
        { key: k("batch"), sessionId: "s-b" },
        { key: k("bad"), sessionId: "s-old" },
      ]),
    ).rejects.toThrow();
    const third = await open();
    expect(third.get(k("bad"))).toMatchObject({ sessionId: "s-old", resumeAt: "a-old" });
    expect(third.get(k("batch"))?.sessionId).toBe("s-b");
    expect(third.get(k("good"))?.sessionId).toBe("g-2");
  });

  it("drops a batch in one write, only the entries still naming the session checked", async () => {
    const map = await open();
    await Promise.all(["a", "b", "c"].map((id) => map.set(k(id), `s-${id}`)));
    await map.set(k("c"), "s-c2"); // moved on since it was checked
    const gone = await map.dropMany([
      { key: k("a"), sessionId: "s-a" },
      { key: k("c"), sessionId: "s-c" },
      { key: k("nothing"), sessionId: "s-x" },
    ]);
    expect(gone).toEqual(["a"]);
    await map.set(k("a"), "s-a2"); // after the batch: stored after it
    const again = await open();
    expect([...again.all()].map(([key, e]) => `${key}=${e.sessionId}`).sort()).toEqual([
      "a=s-a2",
      "b=s-b",
      "c=s-c2",
    ]);
  });

  it("imports a map file of earlier versions once, skipping malformed entries", async () => {
    const updatedAt = "2024-12-01T00:00:00.000Z";
    await writeSeed({
      "ctx-ok": { sessionId: "s-ok", updatedAt },
      // Its transcript may be gone: the sweep decides that, the import keeps it.
      "ctx-stale": { sessionId: "s-stale-gone", updatedAt },
      "ctx-point": { sessionId: "s-p", updatedAt, resumeAt: "a-3", branch: "p-1" },
      "ctx-fork": { sessionId: "s-f", updatedAt, resumeAt: "a-4", fork: true },
      "no-id": { updatedAt },
      "bad-fork": { sessionId: "sid-value-bad-fork", updatedAt, fork: "yes" },
      "not-an-object": "sid-value-not-an-object",
      "": { sessionId: "s-empty-key", updatedAt },
    });
    const map = await open({ upgradeKey: (key) => k(`up:${key}`) });
    expect([...map.all().keys()].sort()).toEqual([
      "up:ctx-fork",
      "up:ctx-ok",
      "up:ctx-point",
      "up:ctx-stale",
    ]);
    expect(map.get(k("up:ctx-point"))).toEqual({
      sessionId: "s-p",
      updatedAt,
      resumeAt: "a-3",
      branch: "p-1",
    });
    expect(map.get(k("up:ctx-fork"))?.fork).toBe(true);
    const file = join(target.cwd(), SESSIONS_FILE);
    expect(await readdir(claudeDir())).toContain("claude-a2a.sessions.json.imported");
    expect(infos).toEqual([
      {
        obj: { file, movedTo: `${file}.imported`, imported: 4 },
        msg: "session map file imported into the store",
      },
    ]);
    expect(warnings).toHaveLength(1);
    const skipped = warnings[0]?.obj.entries as { key: string; problem: string }[];
    expect(skipped.map((s) => s.key).sort()).toEqual(["", "bad-fork", "no-id", "not-an-object"]);
    // What it logs names entries and their problem, never a value of theirs.
    // (Values no temp directory's random name could hold: the log line names the file.)
    expect(JSON.stringify(warnings)).not.toContain("sid-value-bad-fork");
    expect(JSON.stringify(warnings)).not.toContain("sid-value-not-an-object");

    // Imported once: the next start reads the store alone.
    await map.set(k("up:ctx-ok"), "s-newer");
    await map.flush();
    const again = await open({ upgradeKey: (key) => k(`up:${key}`) });
    expect(again.get(k("up:ctx-ok"))?.sessionId).toBe("s-newer");
    expect(infos).toHaveLength(1);
  });

  it("an import again (a crash before the rename) changes no row the store has", async () => {
    const map = await open();
    await map.set(k("ctx"), "s-in-store");
    await map.flush();
    await writeSeed({
      ctx: { sessionId: "s-in-file", updatedAt: NOW },
      more: { sessionId: "s-more", updatedAt: NOW },
    });
    const again = await open();
    expect(again.get(k("ctx"))?.sessionId).toBe("s-in-store");
    expect(again.get(k("more"))?.sessionId).toBe("s-more");
  });

  it("moves a file that is not a map aside, warns, and starts with what the store has", async () => {
    await mkdir(claudeDir(), { recursive: true });
    await writeFile(join(target.cwd(), SESSIONS_FILE), '{"version":1,"sessions":{"ctx"');
    const map = await open();
    expect(map.size).toBe(0);
    const names = await readdir(claudeDir());
    const aside = names.find((f) => f.startsWith("claude-a2a.sessions.json.corrupt-"));
    expect(aside).toBeDefined();
    expect(await readFile(join(claudeDir(), aside as string), "utf8")).toBe(
      '{"version":1,"sessions":{"ctx"',
    );
    expect(warnings.map((w) => w.msg)).toEqual([
      "session map file is corrupt; moved it aside and imported nothing",
    ]);
    await writeFile(join(target.cwd(), SESSIONS_FILE), JSON.stringify({ "ctx-1": "s" }));
    expect((await open()).size).toBe(0);
    expect(warnings).toHaveLength(2);
  });

  it("does not read a link planted at the file's name", async () => {
    const outside = join(target.cwd(), "outside.json");
    await writeFile(
      outside,
      JSON.stringify({ version: 1, sessions: { c: { sessionId: "theirs", updatedAt: NOW } } }),
    );
    await mkdir(claudeDir(), { recursive: true });
    await symlink(outside, join(target.cwd(), SESSIONS_FILE));
    const map = await open();
    expect(map.size).toBe(0);
    expect(warnings[0]?.obj).toEqual({ kind: "link", path: SESSIONS_FILE });
    expect((await lstat(join(target.cwd(), SESSIONS_FILE))).isSymbolicLink()).toBe(true);
  });

  it("refuses empty ids, changing nothing", async () => {
    const map = await open();
    await expect(map.set(k(""), "s")).rejects.toThrow(TypeError);
    await expect(map.set(k("c"), "")).rejects.toThrow(TypeError);
    expect(map.size).toBe(0);
    expect((await open()).size).toBe(0);
  });

  it.runIf(target.instances)(
    "keeps each instance's conversations to itself (only where the store has instances: a fleet's)",
    async () => {
      const a = await open({ instance: "host-a/ws-1" });
      const b = await open({ instance: "host-b/ws-1" });
      await a.set(k("same"), "s-a");
      await b.set(k("same"), "s-b");
      await b.set(k("only-b"), "s-b2");
      await a.dropMany([{ key: k("same"), sessionId: "s-a" }]);
      const a2 = await open({ instance: "host-a/ws-1" });
      const b2 = await open({ instance: "host-b/ws-1" });
      expect(a2.size).toBe(0);
      expect([...b2.all()].map(([key, e]) => `${key}=${e.sessionId}`).sort()).toEqual([
        "only-b=s-b2",
        "same=s-b",
      ]);
    },
  );
}
