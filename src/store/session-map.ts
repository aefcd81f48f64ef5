/**
 * The conversation map: which Claude session each conversation (caller + contextId) resumes, with
 * the start point a rewind or a fork chose. What the rest of the server sees of it; it is kept
 * in the task store's database (`store-session-map.ts`), or with the memory store in a small
 * SQLite file of its own (`local-session-map.ts`).
 */
import type { ConversationKey } from "../identity/conversation.js";

/** The map file earlier versions wrote, relative to the workspace: imported once, then renamed. */
export const SESSIONS_FILE = ".claude/claude-a2a.sessions.json";

/** Where the memory store keeps the map, relative to the workspace (SQLite). */
export const SESSIONS_DB_FILE = ".claude/claude-a2a.sessions.db";

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

/** The subset of a pino logger the map needs. */
export interface SessionMapLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
  info?(obj: Record<string, unknown>, msg: string): void;
}

/**
 * The persisted `conversation → Claude session` map. Reads are synchronous, from memory; every
 * change is one row written in one statement, and its promise resolves once it is stored.
 * Changes of one conversation are stored in the order they were made.
 */
export interface SessionMap {
  get(key: ConversationKey): SessionEntry | undefined;
  readonly size: number;
  /** A snapshot of every entry. */
  all(): Map<ConversationKey, SessionEntry>;
  /** Every conversation mapped now, without copying their entries (the startup sweep's list). */
  keys(): ConversationKey[];
  /** Records the session of a conversation (any start point is spent). */
  set(key: ConversationKey, sessionId: string): Promise<void>;
  /** Whether the conversation's entry is `sessionId`, with no start point pending. */
  names(key: ConversationKey, sessionId: string): boolean;
  /**
   * The conversation's next session resumes `sessionId` at `at` (a rewind, a fork), until a
   * session of it starts (`set`).
   */
  point(key: ConversationKey, sessionId: string, at: StartPoint): Promise<void>;
  /**
   * A session started from the conversation's start point runs the prompt `promptUuid`. A
   * rewind's point (the same session, no new id) is kept, naming the prompt its branch began
   * with; a fork's waits for its new session's id (`set`). No write if nothing changes.
   */
  ran(key: ConversationKey, promptUuid: string): Promise<void>;
  /** The start point has done its job: the session is resumed as it is (no write if none). */
  spend(key: ConversationKey): Promise<void>;
  /** Forgets a conversation; resolves (true if it was known) once the change is stored. */
  delete(key: ConversationKey): Promise<boolean>;
  /**
   * Forgets each of these conversations whose entry still names that session, in one write (one
   * transaction); resolves with the keys it forgot. The startup sweep's batch.
   */
  dropMany(
    stale: readonly { readonly key: ConversationKey; readonly sessionId: string }[],
  ): Promise<ConversationKey[]>;
  /** Resolves when every change made so far is stored (or its write has failed). */
  flush(): Promise<void>;
  /** `flush()`, then lets go of what the map holds open (its own database file, if any). */
  close(): Promise<void>;
}
