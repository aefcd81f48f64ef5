import { constants } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import type { Part } from "@a2a-js/sdk";
import { basename, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { rawPart } from "../contract/messages.js";
import { mediaTypeOfName, OCTET_STREAM } from "../common/media-types.js";

/**
 * Files of a delegated call: those Claude sends (paths inside the working directory only) and
 * those the peer's artifacts hold, saved under `.a2a/peers/<agent>/<peer task>/` there.
 *
 * This server is not sandboxed, Claude's Bash may be: a symlink Claude made in the working
 * directory must not let the server read a file outside it (or one the sandbox's `denyRead`
 * hides) and send it to a peer, nor write a peer's bytes outside it. So both sides are compared
 * as real paths, a file is opened with `O_NOFOLLOW`, saving creates each directory and file
 * itself, never through a link, and an opened file is checked to be where its path said, so a
 * link swapped in between the check and the open is caught too (docs/peers.md "Tools").
 */

/** `path` lies strictly inside `root` (`..foo` is inside; `..` and `../x` are not). */
export const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** A refusal Claude reads as the tool's error. */
export class PeerFileError extends Error {}

/** The file parts of `paths` (relative to `cwd`); throws with a clear reason for one outside. */
export async function filePartsOf(cwd: string, paths: readonly string[]): Promise<Part[]> {
  if (paths.length === 0) return [];
  const root = await realpath(cwd);
  return Promise.all(
    paths.map(async (path) => {
      const bytes = await readInside(cwd, root, path);
      return rawPart(bytes, mediaTypeOfName(path) ?? OCTET_STREAM, basename(path));
    }),
  );
}

/**
 * The bytes of `path` when it is a regular file whose real path lies inside `root` (`cwd`'s real
 * path): opened by that real path without following a link (`O_NONBLOCK`: a FIFO put there does
 * not hang the open), then checked to be the file that real path names.
 */
async function readInside(cwd: string, root: string, path: string): Promise<Buffer> {
  const outside = new PeerFileError(
    `${path} is outside the working directory; only files inside it can be sent.`,
  );
  const full = resolve(cwd, path);
  if (!isInside(resolve(cwd), full)) throw outside;
  const real = await realpath(full).catch((err: unknown) => {
    throw new PeerFileError(
      code(err) === "ENOENT" ? `${path} does not exist.` : `${path} cannot be read: ${code(err)}.`,
    );
  });
  if (!isInside(root, real)) {
    throw new PeerFileError(
      `${path} is a symbolic link (or lies under one) to ${real}, outside the working directory; only files inside it can be sent.`,
    );
  }
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if (code(err) === "ELOOP") throw outside; // A link put in its place since realpath.
    throw new PeerFileError(`${path} cannot be read: ${code(err) ?? String(err)}.`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new PeerFileError(`${path} is not a file.`);
    if ((await openedPath(handle, real)) !== real) throw outside;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Where an open file is: on Linux the kernel's own answer (`/proc/self/fd`), which no link
 * swapped in after the open can change; elsewhere the real path of `path`, read again.
 */
async function openedPath(handle: FileHandle, path: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realpath(path);
  }
}

/** Saves the peer's files; returns their paths relative to `cwd`. */
export async function savePeerFiles(
  cwd: string,
  agent: string,
  peerTaskId: string,
  files: readonly { filename: string; bytes: Buffer }[],
): Promise<string[]> {
  if (files.length === 0) return [];
  const segments = [".a2a", "peers", safe(agent), safe(peerTaskId)];
  const dir = await directoryInside(cwd, segments);
  const saved: string[] = [];
  for (const f of files) {
    // The peer names its files: only the last segment of the name is used.
    const name = safe(basename(f.filename.replace(/\\/g, "/")));
    const written = await createFile(dir, name, f.bytes);
    saved.push([...segments, written].join("/"));
  }
  return saved;
}

/**
 * `cwd/<segments…>`, each created when missing, each a real directory (a symlink in the chain,
 * planted by anyone, is refused rather than followed), and the result's real path under `cwd`'s.
 */
async function directoryInside(cwd: string, segments: readonly string[]): Promise<string> {
  const root = await realpath(cwd);
  let dir = root;
  for (const segment of segments) {
    dir = join(dir, segment);
    await mkdir(dir).catch((err: unknown) => {
      if (code(err) !== "EEXIST") throw err;
    });
    const info = await lstat(dir);
    if (!info.isDirectory()) {
      const what = info.isSymbolicLink() ? "a symbolic link" : "not a directory";
      throw new PeerFileError(
        `Refused to save the peer's files: ${relative(root, dir)} in the working directory is ${what}; files are saved only in real directories inside it.`,
      );
    }
  }
  if ((await realpath(dir)) !== dir) {
    throw new PeerFileError(
      `Refused to save the peer's files: ${relative(root, dir)} was moved while they were saved.`,
    );
  }
  return dir;
}

/**
 * Writes `bytes` to a new file `name` in `dir`, or `name-2`, `name-3`… when it exists: `wx`
 * (O_CREAT | O_EXCL) never follows a link nor overwrites anything already there, and nothing is
 * written unless the new file is in `dir` itself. Returns the name used.
 */
async function createFile(dir: string, name: string, bytes: Buffer): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  for (let n = 1; n <= 100; n++) {
    const candidate = n === 1 ? name : `${stem}-${n}${ext}`;
    const target = join(dir, candidate);
    let handle: FileHandle;
    try {
      handle = await open(target, flags, 0o644);
    } catch (err) {
      if (code(err) === "EEXIST") continue;
      throw err;
    }
    try {
      if ((await openedPath(handle, target)) !== target) {
        throw new PeerFileError(
          `Refused to save the peer's files: their directory was replaced while they were saved.`,
        );
      }
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return candidate;
  }
  throw new PeerFileError(`Refused to save the peer's file ${name}: too many files of that name.`);
}

const safe = (segment: string): string => {
  const cleaned = segment.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return cleaned === "" ? "file" : cleaned;
};
