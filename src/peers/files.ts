import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { Part } from "@a2a-js/sdk";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { rawPart } from "../contract/messages.js";
import { mediaTypeOfName, OCTET_STREAM } from "../common/media-types.js";

/**
 * Files of a delegated call: those Claude sends (paths inside the working directory only) and
 * those the peer's artifacts hold, saved under `.a2a/peers/<agent>/<peer task>/` there.
 */

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
};

/** The file parts of `paths` (relative to `cwd`); throws with a clear reason for one outside. */
export async function filePartsOf(cwd: string, paths: readonly string[]): Promise<Part[]> {
  return Promise.all(
    paths.map(async (path) => {
      const full = resolve(cwd, path);
      if (!inside(cwd, full)) {
        throw new Error(
          `${path} is outside the working directory; only files inside it can be sent.`,
        );
      }
      const bytes = await readFile(full);
      return rawPart(bytes, mediaTypeOfName(full) ?? OCTET_STREAM, basename(full));
    }),
  );
}

/** Saves the peer's files; returns their paths relative to `cwd`. */
export async function savePeerFiles(
  cwd: string,
  agent: string,
  peerTaskId: string,
  files: readonly { filename: string; bytes: Buffer }[],
): Promise<string[]> {
  const dir = join(cwd, ".a2a", "peers", agent, safe(peerTaskId));
  const saved: string[] = [];
  for (const f of files) {
    // The peer names its files: only the last segment of the name is used.
    const target = join(dir, safe(basename(f.filename.replace(/\\/g, "/"))));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, f.bytes);
    saved.push(relative(cwd, target));
  }
  return saved;
}

const safe = (segment: string): string => {
  const cleaned = segment.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return cleaned === "" ? "file" : cleaned;
};
