import { createHash } from "node:crypto";
import { lstat, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CONFIG_SEEN_FILE } from "../common/workspace-files.js";

/**
 * Whether the config file changed since the server last started (docs/sandbox.md, "Threat
 * model"): no tool of any conversation can write it, so a change came from elsewhere, and the
 * operator should know before trusting it. The digest of each start is kept in the workspace's
 * `.claude/`, which no conversation can write either.
 */

export interface ConfigSeen {
  readonly file: string;
  readonly sha256: string;
  /** When the server last started with it (ISO time). */
  readonly at: string;
}

export type ConfigChange =
  | { readonly kind: "first" }
  | { readonly kind: "same" }
  | { readonly kind: "changed"; readonly previous: ConfigSeen; readonly sha256: string };

/** How `now` compares with what the last start recorded. Pure. */
export function compareConfig(
  previous: ConfigSeen | undefined,
  file: string,
  sha256: string,
): ConfigChange {
  if (previous === undefined || previous.file !== file) return { kind: "first" };
  return previous.sha256 === sha256 ? { kind: "same" } : { kind: "changed", previous, sha256 };
}

/** The sentence the startup log and `--check` say of a changed file. Pure. */
export const describeChange = (c: Extract<ConfigChange, { kind: "changed" }>): string =>
  `the config file ${c.previous.file} changed since the server last started with it ` +
  `(${c.previous.at}; sha256 ${c.previous.sha256.slice(0, 12)}… → ${c.sha256.slice(0, 12)}…): ` +
  `check the change before trusting it`;

const digest = async (file: string): Promise<string> =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");

const seenPath = (cwd: string) => join(cwd, CONFIG_SEEN_FILE);

async function readSeen(cwd: string): Promise<ConfigSeen | undefined> {
  const path = seenPath(cwd);
  try {
    // A link or anything but a regular file is not the record this server wrote.
    if (!(await lstat(path)).isFile()) return undefined;
    const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<ConfigSeen>;
    const { file, sha256, at } = parsed;
    return typeof file === "string" && typeof sha256 === "string" && typeof at === "string"
      ? { file, sha256, at }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The change of `file` since the last recorded start in `cwd` (nothing written). */
export async function configChange(file: string, cwd: string): Promise<ConfigChange> {
  return compareConfig(await readSeen(cwd), file, await digest(file));
}

/** At a start: what changed, and `file`'s digest recorded for the next start to compare. */
export async function recordConfig(
  file: string,
  cwd: string,
  now: Date = new Date(),
): Promise<ConfigChange> {
  const sha256 = await digest(file);
  const change = compareConfig(await readSeen(cwd), file, sha256);
  const path = seenPath(cwd);
  await mkdir(dirname(path), { recursive: true });
  // A new file renamed over the old: a link planted at the path is replaced, not followed.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify({ file, sha256, at: now.toISOString() }), { flag: "wx" });
  await rename(temp, path);
  return change;
}
