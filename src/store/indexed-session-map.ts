/**
 * The session map as the server uses it: an index in memory, loaded once at startup, that every
 * read comes from, over rows that every change is written to (`SessionRows`).
 */
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionRows } from "./session-rows.js";
import type { SessionEntry, SessionMap, StartPoint } from "./session-map.js";

/** The writes of one conversation: the one running, and at most one waiting behind it. */
interface KeyWrites {
  /** Settles when the last started write has finished (never rejects). */
  tail: Promise<void>;
  /** A write queued behind `tail` that has not started: new changes of the key join it. */
  queued: Promise<void> | undefined;
}

/**
 * Writes of one conversation run one at a time, each storing the entry as it is when it starts,
 * so the row ends as the index is and a later write always carries every earlier change (a
 * PostgreSQL pool would otherwise run two of them at once, in either order). Conversations are
 * written independently of each other.
 */
export class IndexedSessionMap implements SessionMap {
  private readonly writes = new Map<ConversationKey, KeyWrites>();
  /** Every write not settled yet, for `flush`. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly rows: SessionRows,
    private readonly entries: Map<ConversationKey, SessionEntry>,
    private readonly now: () => Date = () => new Date(),
    private readonly release: () => Promise<void> = () => Promise.resolve(),
  ) {}

  get(key: ConversationKey): SessionEntry | undefined {
    const entry = this.entries.get(key);
    return entry && { ...entry };
  }

  get size(): number {
    return this.entries.size;
  }

  keys(): ConversationKey[] {
    return [...this.entries.keys()];
  }

  all(): Map<ConversationKey, SessionEntry> {
    return new Map([...this.entries].map(([k, v]) => [k, { ...v }]));
  }

  set(key: ConversationKey, sessionId: string): Promise<void> {
    if (key === "" || sessionId === "") {
      return Promise.reject(new TypeError("key and sessionId must be non-empty"));
    }
    this.entries.set(key, { sessionId, updatedAt: this.stamp() });
    return this.persist(key);
  }

  names(key: ConversationKey, sessionId: string): boolean {
    const entry = this.entries.get(key);
    return entry?.sessionId === sessionId && entry.resumeAt === undefined && entry.fork !== true;
  }

  point(key: ConversationKey, sessionId: string, at: StartPoint): Promise<void> {
    this.entries.set(key, {
      sessionId,
      updatedAt: this.stamp(),
      ...(at.resumeAt !== undefined && { resumeAt: at.resumeAt }),
      ...(at.fork === true && { fork: true }),
    });
    return this.persist(key);
  }

  async ran(key: ConversationKey, promptUuid: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry?.resumeAt === undefined || entry.fork === true || entry.branch !== undefined) return;
    this.entries.set(key, { ...entry, branch: promptUuid, updatedAt: this.stamp() });
    await this.persist(key);
  }

  async spend(key: ConversationKey): Promise<void> {
    const entry = this.entries.get(key);
    if (entry === undefined || (entry.resumeAt === undefined && entry.fork !== true)) return;
    this.entries.set(key, { sessionId: entry.sessionId, updatedAt: this.stamp() });
    await this.persist(key);
  }

  async delete(key: ConversationKey): Promise<boolean> {
    if (!this.entries.delete(key)) return false;
    await this.persist(key);
    return true;
  }

  async dropMany(
    stale: readonly { readonly key: ConversationKey; readonly sessionId: string }[],
  ): Promise<ConversationKey[]> {
    const keys = stale
      .filter(({ key, sessionId }) => this.entries.get(key)?.sessionId === sessionId)
      .map(({ key }) => key);
    if (keys.length === 0) return [];
    for (const key of keys) this.entries.delete(key);
    // After every earlier write of these keys, and before any later one: one transaction.
    const before = Promise.all(keys.flatMap((key) => this.writes.get(key)?.tail ?? []));
    const write = before.then(() => this.rows.remove(keys));
    const settled = this.track(write);
    for (const key of keys) this.writes.set(key, { tail: settled, queued: undefined });
    this.forgetWhenDone(keys, settled);
    await write;
    return keys;
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.release();
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private persist(key: ConversationKey): Promise<void> {
    const slot = this.writes.get(key) ?? { tail: Promise.resolve(), queued: undefined };
    if (slot.queued !== undefined) return slot.queued;
    this.writes.set(key, slot);
    const write = slot.tail.then(() => {
      slot.queued = undefined;
      const entry = this.entries.get(key);
      return entry === undefined ? this.rows.remove([key]) : this.rows.put(key, entry);
    });
    slot.queued = write;
    slot.tail = this.track(write);
    this.forgetWhenDone([key], slot.tail);
    return write;
  }

  /** Tracks a write for `flush`: its settling (never rejects). */
  private track(write: Promise<void>): Promise<void> {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return settled;
  }

  /** A key whose last write is done needs no slot: the map stays as small as its writes. */
  private forgetWhenDone(keys: readonly ConversationKey[], settled: Promise<void>): void {
    void settled.then(() => {
      for (const key of keys) {
        const slot = this.writes.get(key);
        if (slot?.tail === settled && slot.queued === undefined) this.writes.delete(key);
      }
    });
  }
}
