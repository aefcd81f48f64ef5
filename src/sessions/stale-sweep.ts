/**
 * The startup sweep of the session map: every mapped session's transcript is checked, and the
 * mappings whose transcript is gone are dropped, so those conversations start fresh instead of
 * failing. It runs once the server serves, in batches, one write (one transaction) per batch,
 * yielding between batches; a conversation used before the sweep reaches it is checked on its
 * own first (`claim`).
 */
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionMap } from "../store/session-map.js";

/** Conversations checked per batch: their checks run together, then one write drops the stale. */
export const SWEEP_BATCH = 200;

/** What `/healthz` says of the sweep (`sessionSweep`). */
export interface SweepProgress {
  readonly state: "pending" | "running" | "done";
  /** Mappings looked at so far (those a first use checked included). */
  readonly checked: number;
  /** Mappings there were when it began. */
  readonly of: number;
  /** Mappings dropped as stale so far. */
  readonly dropped: number;
}

/** A mapping whose check has answered: `exists` undefined when it could not be checked. */
export interface Checked {
  readonly key: ConversationKey;
  readonly sessionId: string;
  readonly exists: boolean | undefined;
}

/**
 * The mappings of a checked batch to drop: transcript gone, the map still naming that session,
 * and no live session using it. A mapping that could not be checked is kept. Pure.
 */
export function staleOf(
  checks: readonly Checked[],
  current: (key: ConversationKey) => string | undefined,
  isLive: (key: ConversationKey) => boolean,
): { key: ConversationKey; sessionId: string }[] {
  return checks
    .filter((c) => c.exists === false && current(c.key) === c.sessionId && !isLive(c.key))
    .map(({ key, sessionId }) => ({ key, sessionId }));
}

export interface SweepHost {
  readonly map: SessionMap;
  /** Whether the session's transcript is there; undefined when the check failed. */
  exists(sessionId: string, key: ConversationKey): Promise<boolean | undefined>;
  isLive(key: ConversationKey): boolean;
  /** A mapping was dropped as stale (the conversation's next task says so). */
  dropped(key: ConversationKey, sessionId: string): void;
  /** The pool closed: the sweep stops before its next batch. */
  stopped(): boolean;
  /** A batch's write failed: its mappings stay, for the next check of each. */
  failed(err: unknown): void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class StaleSweep {
  /** Conversations it has not looked at yet (from its start; empty before). */
  private readonly unchecked = new Set<ConversationKey>();
  private state: SweepProgress["state"] = "pending";
  private checked = 0;
  private of = 0;
  private droppedCount = 0;
  private running: Promise<ConversationKey[]> | undefined;
  private keys: readonly ConversationKey[] | undefined;
  /** The conversations of the batch being checked, and when that batch's write is done. */
  private readonly inFlight = new Map<ConversationKey, Promise<void>>();

  constructor(private readonly host: SweepHost) {}

  get progress(): SweepProgress {
    return { state: this.state, checked: this.checked, of: this.of, dropped: this.droppedCount };
  }

  /**
   * Starts the sweep (once; later calls return the same run) over the mappings `prepare` took;
   * its first batch waits for the next turn of the event loop. Resolves with the keys it dropped.
   */
  run(): Promise<ConversationKey[]> {
    if (this.running !== undefined) return this.running;
    const keys = this.prepare();
    this.state = "running";
    this.running = this.sweep(keys);
    return this.running;
  }

  /**
   * Takes every mapping there is now, without checking any yet: from here on a conversation
   * used first is checked on its own (`claim`). Once; `run` does it if nobody did.
   */
  prepare(): readonly ConversationKey[] {
    if (this.keys !== undefined) return this.keys;
    const keys = this.host.map.keys();
    for (const key of keys) this.unchecked.add(key);
    this.of = keys.length;
    this.keys = keys;
    return keys;
  }

  /**
   * A conversation is about to be used: true if the sweep has not looked at it yet, and now
   * never will (the caller checks it itself).
   */
  claim(key: ConversationKey): boolean {
    if (!this.unchecked.delete(key)) return false;
    this.checked++;
    return true;
  }

  /**
   * When the batch checking this conversation right now has written what it found (its mapping
   * dropped if stale); undefined when no batch holds it. A conversation used meanwhile waits for
   * it, so it never resumes a mapping the sweep is about to drop.
   */
  settled(key: ConversationKey): Promise<void> | undefined {
    return this.inFlight.get(key);
  }

  private async sweep(keys: readonly ConversationKey[]): Promise<ConversationKey[]> {
    const dropped: ConversationKey[] = [];
    try {
      for (let i = 0; i < keys.length; i += SWEEP_BATCH) {
        await nextTurn();
        if (this.host.stopped()) break;
        dropped.push(...(await this.batch(keys.slice(i, i + SWEEP_BATCH))));
      }
    } finally {
      this.unchecked.clear();
      this.state = "done";
    }
    return dropped;
  }

  private async batch(keys: readonly ConversationKey[]): Promise<ConversationKey[]> {
    const mine = keys.filter((key) => this.unchecked.delete(key));
    let done!: () => void;
    const written = new Promise<void>((resolve) => (done = resolve));
    for (const key of mine) this.inFlight.set(key, written);
    try {
      return await this.checkBatch(mine);
    } finally {
      for (const key of mine) this.inFlight.delete(key);
      done();
    }
  }

  private async checkBatch(mine: readonly ConversationKey[]): Promise<ConversationKey[]> {
    const checks = await Promise.all(
      mine.flatMap((key) => {
        const sessionId = this.host.map.get(key)?.sessionId;
        if (sessionId === undefined) return [];
        return [this.host.exists(sessionId, key).then((exists) => ({ key, sessionId, exists }))];
      }),
    );
    this.checked += mine.length;
    if (this.host.stopped()) return [];
    const current = (key: ConversationKey) => this.host.map.get(key)?.sessionId;
    const stale = staleOf(checks, current, (key) => this.host.isLive(key));
    let gone: ConversationKey[];
    try {
      gone = await this.host.map.dropMany(stale);
    } catch (err) {
      this.host.failed(err);
      return [];
    }
    const sessionOf = new Map(stale.map((s) => [s.key, s.sessionId]));
    for (const key of gone) this.host.dropped(key, sessionOf.get(key) as string);
    this.droppedCount += gone.length;
    return gone;
  }
}
