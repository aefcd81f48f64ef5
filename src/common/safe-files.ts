import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import {
  lstat,
  mkdir,
  open,
  readlink,
  realpath,
  rename,
  rm,
  unlink,
  type FileHandle,
} from "node:fs/promises";
import { isAbsolute, join, normalize, relative, resolve, sep } from "node:path";

/**
 * The server's own reads and writes inside a workspace (artifacts, the inbox, the session map,
 * the pid file, git's exclude file): a sandboxed command can swap any file or folder there for a
 * symbolic link at any moment, so no path is trusted as a string. A file is reached from its
 * root one component at a time, never through a link (`O_NOFOLLOW`), made folders included, and
 * refused unless it is a regular file whose real path lies inside the root.
 *
 * On Linux each folder is held open and the next component opened through it
 * (`/proc/self/fd/<folder>/<name>`: the kernel resolves the name in that very folder, as `openat`
 * would, so a folder renamed or replaced once opened changes nothing), and the opened file's path
 * is the kernel's own answer (`readlink /proc/self/fd/<fd>`). Elsewhere (macOS) each component is
 * checked with `lstat` before use and the opened file's device and inode are compared with the
 * path's: a swap at the file is caught, only a folder swapped in that window is missed.
 */
/** Why a file was refused: a link on its path, not a regular file (a FIFO, a folder), outside. */
export type RefusalKind = "link" | "not-regular" | "outside";

/** A refused file; `path` is relative to its root (never the file's contents). */
export class RefusedFileError extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly path: string,
  ) {
    super(
      `${path} ${REASONS[kind]}; the server reads and writes only regular files inside the ` +
        "workspace, never through a link",
    );
    this.name = "RefusedFileError";
  }
}

/** Whether `err` is a refusal (for callers that skip a refused file and go on). */
export const isRefused = (err: unknown): err is RefusedFileError => err instanceof RefusedFileError;

const REASONS: Record<RefusalKind, string> = {
  link: "is a symbolic link",
  "not-regular": "is not a regular file",
  outside: "lies outside the workspace",
};

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;
const PROC_FD = process.platform === "linux" ? "/proc/self/fd" : undefined;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/** `path` is `root` or lies under it (both absolute and normalised; `root` may end in a separator). */
export const within = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/**
 * The components of `path` (relative to `root`, or absolute under `root` or its real path
 * `real`), or a refusal when it leaves the root (`..`) or names the root itself. Pure.
 */
export function segmentsInside(root: string, real: string, path: string): string[] {
  const candidates = isAbsolute(path)
    ? [relative(real, path), relative(resolve(root), path)]
    : [normalize(path)];
  for (const rel of candidates) {
    if (rel === "" || rel === "." || isAbsolute(rel)) continue;
    const segments = rel.split(sep).filter((s) => s !== "" && s !== ".");
    if (segments.length > 0 && !segments.includes("..")) return segments;
  }
  throw new RefusedFileError("outside", path);
}

/** A folder reached without a link: a path prefix usable for its entries, and its handle. */
interface Folder {
  readonly path: string;
  readonly handle?: FileHandle;
}

/** Classifies what stands at `path` when it could not be opened as a folder. */
async function refusalAt(path: string, shown: string): Promise<never> {
  const info = await lstat(path);
  throw new RefusedFileError(info.isSymbolicLink() ? "link" : "not-regular", shown);
}

/** The folder `segments` under `real`, each component a real folder (made when `create`). */
async function openFolder(real: string, segments: readonly string[], create: boolean) {
  let folder: Folder = PROC_FD
    ? { path: "", handle: await open(real, O_RDONLY | O_DIRECTORY) }
    : { path: real };
  const at = (f: Folder) => (f.handle ? `${PROC_FD}/${f.handle.fd}` : f.path);
  try {
    for (let i = 0; i < segments.length; i++) {
      const name = segments[i] as string;
      const shown = segments.slice(0, i + 1).join("/");
      const next = `${at(folder)}/${name}`;
      if (create) {
        await mkdir(next).catch((err: unknown) => {
          if (code(err) !== "EEXIST") throw err;
        });
      }
      if (PROC_FD) {
        let handle: FileHandle;
        try {
          handle = await open(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } catch (err) {
          if (code(err) === "ENOTDIR" || code(err) === "ELOOP") await refusalAt(next, shown);
          throw err;
        }
        await folder.handle?.close();
        folder = { path: "", handle };
      } else {
        const info = await lstat(next);
        if (!info.isDirectory()) await refusalAt(next, shown);
        folder = { path: next };
      }
    }
    return { folder, at: at(folder) };
  } catch (err) {
    await folder.handle?.close();
    throw err;
  }
}

/**
 * Checks an opened file: a regular file, and where its path said (`full`, under `real`).
 * Closes it and throws when not.
 */
async function verify(handle: FileHandle, real: string, full: string, shown: string) {
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new RefusedFileError("not-regular", shown);
    if (PROC_FD) {
      const where = await readlink(`${PROC_FD}/${handle.fd}`);
      if (!within(real, where)) throw new RefusedFileError("outside", shown);
    } else {
      const now = await lstat(full);
      if (now.dev !== info.dev || now.ino !== info.ino) throw new RefusedFileError("link", shown);
      if (!within(real, await realpath(full))) throw new RefusedFileError("outside", shown);
    }
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export interface OpenOptions {
  /** Make the missing parent folders (each checked as it is made). */
  readonly createParents?: boolean;
  readonly mode?: number;
  /**
   * Runs once the folder is reached, before the file is opened: tests put a link in a folder's
   * place there, as a sandboxed command could at that moment.
   */
  readonly beforeOpen?: () => Promise<void>;
}

/**
 * Opens `path` (relative to `root`, or absolute under it) with `flags` plus `O_NOFOLLOW` and
 * `O_NONBLOCK` (a FIFO put there does not hang the open). Throws `RefusedFileError` for a link on
 * the way, something other than a regular file, or a path outside `root`; other errors
 * (`ENOENT`…) as they are.
 */
export async function openInside(
  root: string,
  path: string,
  flags: number,
  options: OpenOptions = {},
): Promise<FileHandle> {
  const real = await realpath(root);
  const segments = segmentsInside(root, real, path);
  const { folder, at } = await openFolder(real, segments.slice(0, -1), !!options.createParents);
  try {
    await options.beforeOpen?.();
    return await openEntry(at, real, segments, flags, options.mode);
  } finally {
    await folder.handle?.close();
  }
}

/** Opens the last of `segments` in its folder (reached at `at`), then checks it. */
async function openEntry(
  at: string,
  real: string,
  segments: readonly string[],
  flags: number,
  mode = 0o644,
): Promise<FileHandle> {
  const shown = segments.join("/");
  let handle: FileHandle;
  try {
    handle = await open(
      `${at}/${segments.at(-1) as string}`,
      flags | O_NOFOLLOW | O_NONBLOCK,
      mode,
    );
  } catch (err) {
    if (code(err) === "ELOOP") throw new RefusedFileError("link", shown);
    if (code(err) === "EISDIR" || code(err) === "ENXIO") {
      throw new RefusedFileError("not-regular", shown);
    }
    throw err;
  }
  await verify(handle, real, join(real, ...segments), shown);
  return handle;
}

/** The bytes of the regular file `path` inside `root` (see `openInside`). */
export async function readFileInside(root: string, path: string): Promise<Buffer> {
  const handle = await openInside(root, path, O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to `path` inside `root`, atomically: a new temp file (`O_EXCL`) beside it, then
 * renamed over it (a rename replaces a link at the name, never follows it). Parent folders are
 * made as needed, never through a link. `sync`: the file and its folder are flushed to disk.
 */
export async function writeFileInside(
  root: string,
  path: string,
  data: string | Buffer,
  options: { readonly sync?: boolean; readonly mode?: number } = {},
): Promise<void> {
  const real = await realpath(root);
  const segments = segmentsInside(root, real, path);
  const name = segments.at(-1) as string;
  const parents = segments.slice(0, -1);
  const tempName = `${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  // One folder for the temp file and the rename: a folder swapped meanwhile is not used.
  const { folder, at } = await openFolder(real, parents, true);
  const tempAt = `${at}/${tempName}`;
  try {
    const flags = O_WRONLY | O_CREAT | O_EXCL;
    const handle = await openEntry(at, real, [...parents, tempName], flags, options.mode);
    try {
      try {
        await handle.writeFile(data);
        if (options.sync) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tempAt, `${at}/${name}`);
    } catch (err) {
      await unlink(tempAt).catch(() => undefined);
      throw err;
    }
    if (options.sync && process.platform !== "win32") {
      // Makes the rename itself durable.
      const dir = folder.handle ?? (await open(at, O_RDONLY | O_DIRECTORY));
      await dir.sync();
      if (!folder.handle) await dir.close();
    }
  } finally {
    await folder.handle?.close();
  }
}

/**
 * Removes `path` inside `root` and what it holds (`rm -rf`), reached without a link: a link at
 * `path` itself is removed, not followed; a link on the way to it is refused. Missing: nothing.
 */
export async function removeInside(root: string, path: string): Promise<void> {
  const real = await realpath(root);
  const segments = segmentsInside(root, real, path);
  let opened;
  try {
    opened = await openFolder(real, segments.slice(0, -1), false);
  } catch (err) {
    if (code(err) === "ENOENT") return;
    throw err;
  }
  try {
    await rm(`${opened.at}/${segments.at(-1) as string}`, { recursive: true, force: true });
  } finally {
    await opened.folder.handle?.close();
  }
}

/** A text file inside `root`; empty when missing or unreadable, but a refusal is thrown. */
export async function readTextInside(root: string, path: string): Promise<string> {
  try {
    return (await readFileInside(root, path)).toString("utf8");
  } catch (err) {
    if (isRefused(err)) throw err;
    return "";
  }
}
