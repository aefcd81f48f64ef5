import { rename } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { isRefused, readFileInside, writeFileInside } from "../common/safe-files.js";
import type { ConversationKey } from "../identity/conversation.js";

/** Where the map lives, relative to the workspace (`claude.cwd`). */
export const SESSIONS_FILE = ".claude/claude-a2a.sessions.json";

export interface SessionEntry {
  /** Claude Agent SDK `session_id`, used to resume the conversation. */
  sessionId: string;
  /** ISO 8601 time of the last change. */
  updatedAt: string;
  /**
   * A rewind or a fork chose where the conversation's next session starts: at this entry of
   * `sessionId` (`resumeSessionAt`), copied to a new session when `fork`. Kept on disk so a
   * restart in between resumes there too: a fork's until its new session has an id (`set`); a
   * rewind's, once its branch runs (`ran`), until the next session has made sure the runtime's
   * record names that branch (`spend`): a plain resume may follow a record of the branch
   * rewound away.
   */
  resumeAt?: string;
  fork?: boolean;
  /** The prompt the rewound branch began with, once a session of it runs (its first run's). */
  branch?: string;
}

/** Where a rewind or a fork has the conversation's next session start (`SessionMap.point`). */
export interface StartPoint {
  readonly resumeAt?: string | undefined;
  readonly fork?: boolean | undefined;
  readonly branch?: string | undefined;
}

/** The subset of a pino logger this module needs. */
export interface SessionMapLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface SessionMapOptions {
  /** Workspace directory: the file is `<cwd>/.claude/claude-a2a.sessions.json`. */
  cwd: string;
  logger: SessionMapLogger;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Rewrites a key of an older file into today's form. Without it the file's keys are taken as
   * they are: a file this server wrote holds nothing but conversation keys.
   */
  upgradeKey?: (key: string) => ConversationKey;
}

const fileSchema = z.object({
  version: z.literal(1),
  sessions: z.record(
    z.string().min(1),
    z.object({
      sessionId: z.string().min(1),
      updatedAt: z.string(),
      resumeAt: z.string().min(1).optional(),
      fork: z.boolean().optional(),
      branch: z.string().min(1).optional(),
    }),
  ),
});

/**
 * The persisted `conversation (caller + contextId) → Claude session` map. Reads are from memory; every change is
 * written atomically (temp file, fsync, rename). Writes run one at a time and each one writes the
 * whole current map, so a later write always carries every earlier change.
 */
export class SessionMap {
  private readonly entries: Map<ConversationKey, SessionEntry>;
  private readonly now: () => Date;
  /** Settles when the last started write has finished (never rejects). */
  private tail: Promise<void> = Promise.resolve();
  /** A write queued behind `tail` that has not started yet: new changes join it. */
  private queued: Promise<void> | null = null;

  private constructor(
    private readonly cwd: string,
    readonly file: string,
    entries: Map<ConversationKey, SessionEntry>,
    now: () => Date,
  ) {
    this.entries = entries;
    this.now = now;
  }

  /** Loads the map; a missing file is an empty map, a corrupt one is moved aside with a warning. */
  static async open(options: SessionMapOptions): Promise<SessionMap> {
    const file = join(options.cwd, SESSIONS_FILE);
    const now = options.now ?? (() => new Date());
    const loaded = await load(options.cwd, file, options.logger, now);
    const upgrade = options.upgradeKey;
    if (upgrade === undefined) {
      return new SessionMap(options.cwd, file, loaded as Map<ConversationKey, SessionEntry>, now);
    }
    const entries = new Map([...loaded].map(([key, entry]) => [upgrade(key), entry]));
    const map = new SessionMap(options.cwd, file, entries, now);
    const kept = new Set<string>(entries.keys());
    if ([...loaded.keys()].some((key) => !kept.has(key))) await map.persist();
    return map;
  }

  get(key: ConversationKey): SessionEntry | undefined {
    const entry = this.entries.get(key);
    return entry && { ...entry };
  }

  get size(): number {
    return this.entries.size;
  }

  /** A snapshot of every entry. */
  all(): Map<ConversationKey, SessionEntry> {
    return new Map([...this.entries].map(([k, v]) => [k, { ...v }]));
  }

  /** Records the session of a conversation; resolves once the change is on disk. */
  set(key: ConversationKey, sessionId: string): Promise<void> {
    if (key === "" || sessionId === "") {
      return Promise.reject(new TypeError("key and sessionId must be non-empty"));
    }
    this.entries.set(key, { sessionId, updatedAt: this.now().toISOString() });
    return this.persist();
  }

  /** Whether the conversation's entry is `sessionId`, with no start point pending. */
  names(key: ConversationKey, sessionId: string): boolean {
    const entry = this.entries.get(key);
    return entry?.sessionId === sessionId && entry.resumeAt === undefined && entry.fork !== true;
  }

  /**
   * The conversation's next session resumes `sessionId` at `at` (a rewind, a fork), until a
   * session of it starts (`set`); resolves once the change is on disk.
   */
  point(key: ConversationKey, sessionId: string, at: StartPoint): Promise<void> {
    this.entries.set(key, {
      sessionId,
      updatedAt: this.now().toISOString(),
      ...(at.resumeAt !== undefined && { resumeAt: at.resumeAt }),
      ...(at.fork === true && { fork: true }),
    });
    return this.persist();
  }

  /**
   * A session started from the conversation's start point runs the prompt `promptUuid`. A
   * rewind's point (the same session, no new id) is kept, naming the prompt its branch began
   * with; a fork's waits for its new session's id (`set`). No write if nothing changes.
   */
  async ran(key: ConversationKey, promptUuid: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry?.resumeAt === undefined || entry.fork === true || entry.branch !== undefined) return;
    this.entries.set(key, { ...entry, branch: promptUuid, updatedAt: this.now().toISOString() });
    await this.persist();
  }

  /** The start point has done its job: the session is resumed as it is (no write if none). */
  async spend(key: ConversationKey): Promise<void> {
    const entry = this.entries.get(key);
    if (entry === undefined || (entry.resumeAt === undefined && entry.fork !== true)) return;
    this.entries.set(key, { sessionId: entry.sessionId, updatedAt: this.now().toISOString() });
    await this.persist();
  }

  /** Forgets a conversation; resolves (true if it was known) once the change is on disk. */
  async delete(key: ConversationKey): Promise<boolean> {
    if (!this.entries.delete(key)) return false;
    await this.persist();
    return true;
  }

  /** Resolves when every change made so far is on disk (or its write has failed). */
  flush(): Promise<void> {
    return this.tail;
  }

  private persist(): Promise<void> {
    if (this.queued) return this.queued;
    const write = this.tail.then(() => {
      this.queued = null;
      // Temp file, fsync, rename, fsync of the folder; never through a link (a sandboxed
      // command can put one at `.claude`).
      return writeFileInside(this.cwd, SESSIONS_FILE, serialize(this.entries), { sync: true });
    });
    this.queued = write;
    this.tail = write.catch(() => undefined);
    return write;
  }
}

async function load(
  cwd: string,
  file: string,
  logger: SessionMapLogger,
  now: () => Date,
): Promise<Map<string, SessionEntry>> {
  let text: string;
  try {
    text = (await readFileInside(cwd, SESSIONS_FILE)).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    if (isRefused(err)) {
      // A link (or a FIFO…) in its place is not the server's map: the next write replaces it.
      logger.warn(
        { kind: err.kind, path: err.path },
        "session map file refused (not a regular file inside the workspace); starting with no sessions",
      );
      return new Map();
    }
    throw err;
  }
  let problem: string;
  try {
    const json: unknown = JSON.parse(text);
    const parsed = fileSchema.safeParse(json);
    // zod rebuilds a record by assignment, which turns a "__proto__" key into a prototype and
    // loses it: the (validated) entries are taken from the parsed JSON, whose keys are its own.
    if (parsed.success) return entriesOf(json as { sessions: Record<string, SessionEntry> });
    problem = parsed.error.issues[0]?.message ?? "unexpected content";
  } catch (err) {
    problem = (err as Error).message;
  }
  // Keep the bad file for inspection instead of silently losing every conversation it held.
  const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
  await rename(file, aside);
  logger.warn(
    { file, movedTo: aside, problem },
    "session map file is corrupt; moved it aside and starting with no sessions",
  );
  return new Map();
}

function entriesOf(file: { sessions: Record<string, SessionEntry> }): Map<string, SessionEntry> {
  return new Map(
    Object.entries(file.sessions).map(([key, e]) => [
      key,
      {
        sessionId: e.sessionId,
        updatedAt: e.updatedAt,
        ...(e.resumeAt !== undefined && { resumeAt: e.resumeAt }),
        ...(e.fork === true && { fork: true }),
        ...(e.branch !== undefined && { branch: e.branch }),
      },
    ]),
  );
}

function serialize(entries: Map<string, SessionEntry>): string {
  const sessions = Object.fromEntries(entries);
  return `${JSON.stringify({ version: 1, sessions }, null, 2)}\n`;
}
