import { constants } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { openInside } from "../../common/safe-files.js";
import type { ProjectEntry } from "../../contract/extended-card.js";
import { frontmatter } from "./frontmatter.js";

/** Only the head of a file is read: the frontmatter is at its top. */
const HEAD_BYTES = 16 * 1024;
/** Bounds on what one workspace may put in the card. */
const MAX_ENTRIES = 200;
const MAX_DESCRIPTION = 500;
/** What Claude Code accepts as a command or agent name; anything else is skipped. */
const NAME = /^[A-Za-z0-9][\w.:-]{0,63}$/;

/** The head of a regular file inside `cwd`, opened without following a link (safe-files.ts). */
async function head(cwd: string, file: string): Promise<string> {
  const handle = await openInside(cwd, file, constants.O_RDONLY);
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

const clip = (text: string | undefined) =>
  text === undefined || text.trim() === ""
    ? undefined
    : text.trim().length > MAX_DESCRIPTION
      ? `${text.trim().slice(0, MAX_DESCRIPTION - 1)}…`
      : text.trim();

/**
 * The `*.md` files of `<cwd>/.claude/<folder>`: each one's name and frontmatter description,
 * sorted by name. A file that is a link or under one (it could name one outside) or cannot be
 * read is skipped: its text would not be the workspace's to show. Agents are named by their
 * `name:` key (as Claude Code does), commands by their file.
 */
export async function readProjectEntries(
  cwd: string,
  folder: "commands" | "agents",
): Promise<ProjectEntry[]> {
  let files: string[];
  try {
    files = (await readdir(join(cwd, ".claude", folder))).filter((f) => f.endsWith(".md")).sort();
  } catch {
    return [];
  }
  const entries = new Map<string, ProjectEntry>();
  for (const file of files) {
    if (entries.size >= MAX_ENTRIES) break;
    try {
      // A link, a FIFO or a device is refused (the FIFO would block the read).
      const meta = frontmatter(await head(cwd, `.claude/${folder}/${file}`));
      const fromFile = file.slice(0, -".md".length);
      const name = folder === "agents" ? (meta.name ?? fromFile) : fromFile;
      if (!NAME.test(name) || entries.has(name)) continue;
      entries.set(name, { name, description: clip(meta.description) });
    } catch {
      // Unreadable, or gone meanwhile: not listed.
    }
  }
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
}
