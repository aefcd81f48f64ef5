/**
 * The map file earlier versions kept (`.claude/claude-a2a.sessions.json`), read once: what it
 * holds that is valid goes to the map's rows, the file is renamed `….imported`. An entry that is
 * malformed is skipped and named in the log; a file that is not a map at all is moved aside
 * (`….corrupt-<time>`), as those versions did.
 */
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { isRefused, readFileInside } from "../common/safe-files.js";
import type { ConversationKey } from "../identity/conversation.js";
import { SESSIONS_FILE, type SessionEntry, type SessionMapLogger } from "./session-map.js";

const entrySchema = z.object({
  sessionId: z.string().min(1),
  updatedAt: z.string(),
  resumeAt: z.string().min(1).optional(),
  fork: z.boolean().optional(),
  branch: z.string().min(1).optional(),
});

const fileSchema = z.object({ version: z.literal(1), sessions: z.record(z.string(), z.unknown()) });

/** At most this many skipped keys are named in the log line. */
const NAMED_SKIPPED = 20;

/** What a map file holds: its valid entries, and the keys of those it skipped with why. */
export interface ParsedMapFile {
  readonly entries: Map<string, SessionEntry>;
  readonly skipped: readonly { readonly key: string; readonly problem: string }[];
}

/**
 * A map file's text read entry by entry; undefined with the problem when it is not a map file
 * at all (not JSON, another version, no `sessions` object). Pure.
 */
export function parseMapFile(text: string): ParsedMapFile | { readonly problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: (err as Error).message };
  }
  const file = fileSchema.safeParse(json);
  if (!file.success) return { problem: file.error.issues[0]?.message ?? "unexpected content" };
  // zod rebuilds a record by assignment, which turns a "__proto__" key into a prototype and
  // loses it: the keys are taken from the parsed JSON, whose keys are its own.
  const sessions = (json as { sessions: Record<string, unknown> }).sessions;
  const entries = new Map<string, SessionEntry>();
  const skipped: { key: string; problem: string }[] = [];
  for (const [key, value] of Object.entries(sessions)) {
    const parsed = entrySchema.safeParse(value);
    if (key === "") skipped.push({ key, problem: "empty key" });
    else if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skipped.push({ key, problem: `${issue?.path.join(".") || "entry"}: ${issue?.message}` });
    } else entries.set(key, entryOf(parsed.data));
  }
  return { entries, skipped };
}

function entryOf(e: z.infer<typeof entrySchema>): SessionEntry {
  return {
    sessionId: e.sessionId,
    updatedAt: e.updatedAt,
    ...(e.resumeAt !== undefined && { resumeAt: e.resumeAt }),
    ...(e.fork === true && { fork: true }),
    ...(e.branch !== undefined && { branch: e.branch }),
  };
}

export interface ImportOptions {
  /** The folder the file is in `.claude/` of (the workspace, or the server's state folder). */
  readonly cwd: string;
  readonly logger: SessionMapLogger;
  readonly now: () => Date;
  /** Rewrites a key of an older file into today's form (a bare contextId). */
  readonly upgradeKey?: ((key: string) => ConversationKey) | undefined;
  /** Stores the entries (rows that exist already win: the file is older than they are). */
  readonly store: (entries: ReadonlyMap<ConversationKey, SessionEntry>) => Promise<void>;
}

/**
 * Imports the map file if there is one: its valid entries are stored, then it is renamed
 * `….imported` (a crash in between imports it again next time, changing nothing). Returns how
 * many entries it imported (0 without a file).
 */
export async function importMapFile(o: ImportOptions): Promise<number> {
  const file = join(o.cwd, SESSIONS_FILE);
  let text: string;
  try {
    text = (await readFileInside(o.cwd, SESSIONS_FILE)).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    if (isRefused(err)) {
      // A link (or a FIFO…) in its place is not the server's map: it is left alone.
      o.logger.warn(
        { kind: err.kind, path: err.path },
        "session map file refused (not a regular file inside the workspace); not imported",
      );
      return 0;
    }
    throw err;
  }
  const parsed = parseMapFile(text);
  if ("problem" in parsed) {
    // Kept for inspection instead of silently losing every conversation it held.
    const aside = `${file}.corrupt-${o.now().toISOString().replace(/[:.]/g, "-")}`;
    await rename(file, aside);
    o.logger.warn(
      { file, movedTo: aside, problem: parsed.problem },
      "session map file is corrupt; moved it aside and imported nothing",
    );
    return 0;
  }
  const upgrade = o.upgradeKey ?? ((key: string) => key as ConversationKey);
  const entries = new Map([...parsed.entries].map(([key, e]) => [upgrade(key), e]));
  await o.store(entries);
  const imported = `${file}.imported`;
  await rename(file, imported);
  const { skipped } = parsed;
  const line = { file, movedTo: imported, imported: entries.size };
  (o.logger.info ?? o.logger.warn).call(o.logger, line, "session map file imported into the store");
  if (skipped.length > 0) {
    o.logger.warn(
      { file, skipped: skipped.length, entries: skipped.slice(0, NAMED_SKIPPED) },
      "session map file: skipped malformed entries",
    );
  }
  return entries.size;
}
