/**
 * The files of a delegated call (docs/peers.md "Tools") on real temp directories: what Claude
 * sends is read only from inside the working directory, and what a peer sends is written only
 * there, whatever symlinks Claude's Bash planted in it.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { filePartsOf, isInside, PeerFileError, savePeerFiles } from "../../../src/peers/files.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A working directory and, beside it, a directory outside it holding a secret. */
async function setup() {
  const base = await mkdtemp(join(tmpdir(), "peer-files-"));
  dirs.push(base);
  const cwd = join(base, "work");
  const outside = join(base, "outside");
  await mkdir(cwd);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "secret\n");
  await writeFile(join(cwd, "notes.md"), "# notes\n");
  return { cwd, outside };
}

const rawOf = (part: { content?: { $case: string; value: unknown } | undefined }) =>
  part.content?.$case === "raw" ? Buffer.from(part.content.value as Uint8Array).toString() : "";

describe("isInside", () => {
  it.each([
    ["/w", "/w/a", true],
    ["/w", "/w/..a", true],
    ["/w", "/w", false],
    ["/w", "/w/../a", false],
    ["/w", "/wx/a", false],
    ["/w", "/", false],
  ])("%s holds %s: %s", (root, path, inside) => {
    expect(isInside(root, path)).toBe(inside);
  });
});

describe("filePartsOf: the files Claude sends", () => {
  it("sends a file of the working directory as a raw part with its name and type", async () => {
    const { cwd } = await setup();
    await mkdir(join(cwd, "sub"));
    await writeFile(join(cwd, "sub", "..odd.txt"), "odd\n");
    const parts = await filePartsOf(cwd, ["notes.md", "sub/..odd.txt"]);
    expect(parts.map(rawOf)).toEqual(["# notes\n", "odd\n"]);
    expect(parts.map((p) => [p.filename, p.mediaType])).toEqual([
      ["notes.md", "text/markdown"],
      ["..odd.txt", "text/plain"],
    ]);
  });

  it("reads a working directory reached through a symlink (a symlinked checkout)", async () => {
    const { cwd } = await setup();
    const alias = join(cwd, "..", "alias");
    await symlink(cwd, alias);
    expect((await filePartsOf(alias, ["notes.md"])).map(rawOf)).toEqual(["# notes\n"]);
  });

  it.each([
    ["a path outside", () => "../outside/secret.txt", "is outside the working directory"],
    ["an absolute path outside", (o: string) => join(o, "secret.txt"), "is outside"],
    [
      "a symlink to a file outside",
      async (o: string, cwd: string) => {
        await symlink(join(o, "secret.txt"), join(cwd, "link.txt"));
        return "link.txt";
      },
      "is a symbolic link (or lies under one) to",
    ],
    [
      "a file under a symlinked directory pointing outside",
      async (o: string, cwd: string) => {
        await symlink(o, join(cwd, "dir"));
        return "dir/secret.txt";
      },
      "outside the working directory",
    ],
    [
      "a relative symlink climbing out",
      async (_o: string, cwd: string) => {
        await symlink("../outside/secret.txt", join(cwd, "up.txt"));
        return "up.txt";
      },
      "is a symbolic link",
    ],
    ["the working directory itself", () => ".", "is outside the working directory"],
    [
      "a directory",
      async (_o: string, cwd: string) => {
        await mkdir(join(cwd, "d"));
        return "d";
      },
      "d is not a file",
    ],
    [
      "a FIFO (its open must not hang)",
      (_o: string, cwd: string) => {
        execFileSync("mkfifo", [join(cwd, "pipe")]);
        return "pipe";
      },
      "pipe is not a file",
    ],
    ["a missing file", () => "gone.txt", "gone.txt does not exist"],
  ])("refuses %s with a clear error, reading nothing", async (_what, plant, error) => {
    const { cwd, outside } = await setup();
    const path = await plant(outside, cwd);
    const sent = filePartsOf(cwd, ["notes.md", path]);
    await expect(sent).rejects.toBeInstanceOf(PeerFileError);
    await expect(sent).rejects.toThrow(error);
  });

  it("accepts a symlink that stays inside the working directory", async () => {
    const { cwd } = await setup();
    await symlink("notes.md", join(cwd, "alias.md"));
    expect((await filePartsOf(cwd, ["alias.md"])).map(rawOf)).toEqual(["# notes\n"]);
  });
});

const peerFile = (filename: string, text: string) => ({ filename, bytes: Buffer.from(text) });

describe("savePeerFiles: the files a peer sends", () => {
  it("saves under .a2a/peers/<agent>/<task>/, the last segment of each name only, a repeated name numbered", async () => {
    const { cwd, outside } = await setup();
    const saved = await savePeerFiles(cwd, "b", "t/1", [
      peerFile("review.md", "one"),
      peerFile("../../../outside/review.md", "two"),
      peerFile("..\\.hidden", "three"),
    ]);
    expect(saved).toEqual([
      ".a2a/peers/b/t_1/review.md",
      ".a2a/peers/b/t_1/review-2.md",
      ".a2a/peers/b/t_1/_hidden",
    ]);
    const texts = await Promise.all(saved.map((p) => readFile(join(cwd, p), "utf8")));
    expect(texts).toEqual(["one", "two", "three"]);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it.each([
    [".a2a", "../outside"],
    [".a2a/peers", "../../outside"],
    [".a2a/peers/b", "../../../outside"],
    [".a2a/peers/b/t1", "../../../../outside"],
  ])("refuses a symlink planted at %s, writing nothing outside", async (at, target) => {
    const { cwd, outside } = await setup();
    const parent = join(cwd, at, "..");
    await mkdir(parent, { recursive: true });
    await symlink(target, join(cwd, at));
    expect(await realpath(join(cwd, at))).toBe(await realpath(outside));
    const saving = savePeerFiles(cwd, "b", "t1", [peerFile("x.md", "peer bytes")]);
    await expect(saving).rejects.toBeInstanceOf(PeerFileError);
    await expect(saving).rejects.toThrow(`${at} in the working directory is a symbolic link`);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  it("never follows nor overwrites a file symlink planted where a file will go", async () => {
    const { cwd, outside } = await setup();
    const dir = join(cwd, ".a2a/peers/b/t1");
    await mkdir(dir, { recursive: true });
    await symlink(join(outside, "secret.txt"), join(dir, "x.md"));
    await symlink(join(outside, "new.md"), join(dir, "x-2.md")); // dangling: O_EXCL refuses it too
    const saved = await savePeerFiles(cwd, "b", "t1", [peerFile("x.md", "peer bytes")]);
    expect(saved).toEqual([".a2a/peers/b/t1/x-3.md"]);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(existsSync(join(outside, "new.md"))).toBe(false);
    expect(await readFile(join(dir, "x-3.md"), "utf8")).toBe("peer bytes");
  });

  it("refuses a file where a directory goes", async () => {
    const { cwd } = await setup();
    await mkdir(join(cwd, ".a2a"));
    await writeFile(join(cwd, ".a2a/peers"), "");
    await expect(savePeerFiles(cwd, "b", "t1", [peerFile("x", "y")])).rejects.toThrow(
      ".a2a/peers in the working directory is not a directory",
    );
  });

  it("creates nothing when the peer sent no file", async () => {
    const { cwd } = await setup();
    expect(await savePeerFiles(cwd, "b", "t1", [])).toEqual([]);
    expect(existsSync(join(cwd, ".a2a"))).toBe(false);
  });
});
