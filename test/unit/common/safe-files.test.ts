import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  openInside,
  readFileInside,
  RefusedFileError,
  removeInside,
  segmentsInside,
  writeFileInside,
} from "../../../src/common/safe-files.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

/** A workspace `ws` and, beside it, a folder `outside` holding a secret. */
const dir = useTempDir("claude-a2a-safe-files-", async (d) => {
  await mkdir(join(d, "ws", "sub"), { recursive: true });
  await mkdir(join(d, "outside"));
  await writeFile(join(d, "outside", "secret"), "SECRET");
  await writeFile(join(d, "ws", "sub", "ok.txt"), "fine");
});
const ws = () => join(dir(), "ws");
const outside = () => join(dir(), "outside");

const refusal = async (work: Promise<unknown>) => {
  const err: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RefusedFileError);
  const { kind, path } = err as RefusedFileError;
  return { kind, path };
};

describe("segmentsInside", () => {
  it.each([
    ["a/b.txt", ["a", "b.txt"]],
    ["./a//b.txt", ["a", "b.txt"]],
    ["a/../b.txt", ["b.txt"]],
    ["/w/ws/a.txt", ["a.txt"]],
    ["/real/ws/a.txt", ["a.txt"]],
    ["/w/ws/..notes.md", ["..notes.md"]],
    ["...", ["..."]],
  ])("%s is %j under the root", (path, segments) => {
    expect(segmentsInside("/w/ws", "/real/ws", path)).toEqual(segments);
  });

  it.each(["../x", "a/../../x", "/etc/passwd", "/w/ws", ".", "", "/w/wsx/a"])(
    "%s is outside",
    (path) => {
      expect(() => segmentsInside("/w/ws", "/real/ws", path)).toThrow(RefusedFileError);
    },
  );
});

describe("readFileInside", () => {
  it("reads a regular file, by a relative path or an absolute one under the root", async () => {
    expect((await readFileInside(ws(), "sub/ok.txt")).toString()).toBe("fine");
    expect((await readFileInside(ws(), join(ws(), "sub", "ok.txt"))).toString()).toBe("fine");
  });

  it("reads through a root that is itself a link (the operator's choice, not a file's)", async () => {
    await symlink(ws(), join(dir(), "ws-link"));
    expect((await readFileInside(join(dir(), "ws-link"), "sub/ok.txt")).toString()).toBe("fine");
  });

  it("refuses a file that is a link to a file outside", async () => {
    await symlink(join(outside(), "secret"), join(ws(), "notes.txt"));
    expect(await refusal(readFileInside(ws(), "notes.txt"))).toEqual({
      kind: "link",
      path: "notes.txt",
    });
  });

  it("refuses a file under a folder that is a link to a folder outside", async () => {
    await symlink(outside(), join(ws(), "linked"));
    expect(await refusal(readFileInside(ws(), "linked/secret"))).toEqual({
      kind: "link",
      path: "linked",
    });
  });

  it("refuses a path that leaves the root with ..", async () => {
    expect(await refusal(readFileInside(ws(), "../outside/secret"))).toMatchObject({
      kind: "outside",
    });
    expect(await refusal(readFileInside(ws(), join(outside(), "secret")))).toMatchObject({
      kind: "outside",
    });
  });

  it("refuses a folder and a FIFO in a file's place, without hanging on the FIFO", async () => {
    execFileSync("mkfifo", [join(ws(), "pipe")]);
    expect(await refusal(readFileInside(ws(), "pipe"))).toEqual({
      kind: "not-regular",
      path: "pipe",
    });
    expect(await refusal(readFileInside(ws(), "sub"))).toEqual({
      kind: "not-regular",
      path: "sub",
    });
  });

  it("never reads the file a folder swapped for a link after it was reached names", async () => {
    await writeFile(join(outside(), "ok.txt"), "SECRET");
    let bytes: Buffer | RefusedFileError;
    try {
      const handle = await openInside(ws(), "sub/ok.txt", constants.O_RDONLY, {
        // What a sandboxed command could do between the server's check and its open.
        beforeOpen: async () => {
          await rename(join(ws(), "sub"), join(ws(), "sub-old"));
          await symlink(outside(), join(ws(), "sub"));
        },
      });
      bytes = await handle.readFile();
      await handle.close();
    } catch (err) {
      bytes = err as RefusedFileError;
    }
    // On Linux the folder is held open: the file read is the one it holds. Elsewhere the open
    // file is compared with the path, and refused.
    if (process.platform === "linux") expect(bytes.toString()).toBe("fine");
    else expect(bytes).toBeInstanceOf(RefusedFileError);
  });
});

describe("writeFileInside", () => {
  it("writes a file, making its folders", async () => {
    await writeFileInside(ws(), ".claude/a2a-inbox/t1/a.txt", "hello");
    expect(await readFile(join(ws(), ".claude/a2a-inbox/t1/a.txt"), "utf8")).toBe("hello");
    // No temp file is left beside it.
    expect(await readdir(join(ws(), ".claude/a2a-inbox/t1"))).toEqual(["a.txt"]);
  });

  it("replaces a link at the file's name instead of writing through it", async () => {
    await symlink(join(outside(), "secret"), join(ws(), "pids.json"));
    await writeFileInside(ws(), "pids.json", "{}", { sync: true });
    expect(await readFile(join(outside(), "secret"), "utf8")).toBe("SECRET");
    expect((await lstat(join(ws(), "pids.json"))).isFile()).toBe(true);
  });

  it.each([
    ["the file's folder", ".claude", ".claude/a2a-inbox/t1/a.txt", ".claude"],
    ["a folder below it", ".claude/a2a-inbox", ".claude/a2a-inbox/t1/a.txt", ".claude/a2a-inbox"],
  ])(
    "refuses to write when %s is a link, and writes nothing outside",
    async (_what, link, path, shown) => {
      if (link !== ".claude") await mkdir(join(ws(), ".claude"));
      await symlink(outside(), join(ws(), link));
      expect(await refusal(writeFileInside(ws(), path, "caller's bytes"))).toEqual({
        kind: "link",
        path: shown,
      });
      expect(await readdir(outside())).toEqual(["secret"]);
    },
  );

  it("refuses a path that leaves the root", async () => {
    expect(await refusal(writeFileInside(ws(), "../outside/x", "bytes"))).toMatchObject({
      kind: "outside",
    });
    expect(await readdir(outside())).toEqual(["secret"]);
  });
});

describe("removeInside", () => {
  it("removes a folder and what it holds; a missing one is nothing", async () => {
    await removeInside(ws(), "sub");
    expect(await readdir(ws())).toEqual([]);
    await removeInside(ws(), "gone/deeper");
  });

  it("removes a link itself, not what it names; refuses a link on the way", async () => {
    await symlink(outside(), join(ws(), "linked"));
    expect(await refusal(removeInside(ws(), "linked/secret"))).toMatchObject({ kind: "link" });
    await removeInside(ws(), "linked");
    expect(await readdir(outside())).toEqual(["secret"]);
    expect(await readdir(ws())).toEqual(["sub"]);
  });
});
