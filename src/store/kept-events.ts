import { StreamResponse } from "@a2a-js/sdk";
import type { Logger } from "pino";
import {
  replayDecision,
  type KeptEvent,
  type KeptRange,
  type ReplayLog,
  type ReplayRead,
  type SentMessage,
} from "./replay-log.js";

/** One row to write: an event, or a send. */
export interface EventRow {
  readonly taskId: string;
  readonly n: number;
  readonly at: number;
  readonly ends: boolean;
  readonly json: string;
}

export interface SendRow extends SentMessage {
  readonly scope: string;
  readonly key: string;
  readonly at: number;
}

/** Where kept events go when the store is a database (`sql-replay-backend.ts`). */
export interface ReplayBackend {
  /** Writes the rows in one statement each (already written rows are skipped). */
  write(events: readonly EventRow[], sends: readonly SendRow[]): Promise<void>;
  read(taskId: string, cursor: number): Promise<{ range: KeptRange; events: KeptEvent[] }>;
  findSend(scope: string, key: string): Promise<SentMessage | undefined>;
  /** Deletes the events of tasks that ended before `cutoff` (epoch ms) and the sends older. */
  prune(cutoff: number): Promise<number>;
}

export interface KeptEventsOptions {
  /** Unset: memory only (the `memory` store, tests). */
  readonly backend?: ReplayBackend;
  /** How long a finished task's events (and its sends) are kept (`replay.retainMs`). */
  readonly retainMs: number;
  readonly logger: Logger;
  /** How long an event may wait for others to join its write (ms); as the write-behind store. */
  readonly delayMs?: number;
  /** How often retention runs (ms); default `pruneInterval(retainMs)`. */
  readonly pruneEveryMs?: number;
  readonly now?: () => number;
}

interface TaskEvents {
  readonly events: KeptEvent[];
  endedAt: number | undefined;
  /** Rows of this task not yet written. */
  unwritten: number;
}

/**
 * How long a live task's event may wait to be written with others (ms). On a single server its
 * live events are read from memory only, so the database copy serves after the task ends or a
 * crash: a second's batch is one insert where 50 ms made several per turn (the task's end and a
 * send are written at once either way). A fleet's other instances read them from the table:
 * there they go out as soon as the task store's progress does.
 */
export const LIVE_EVENTS_DELAY_MS = 1_000;
export const FLEET_EVENTS_DELAY_MS = 50;

/**
 * How often retention runs for a retention of `retainMs`: as often as the retention itself, so a
 * short one is kept to (a cursor past it is refused within about that time), but at most once a
 * second and at least once a minute. Pure.
 */
export const pruneInterval = (retainMs: number): number =>
  Math.min(60_000, Math.max(1_000, retainMs));

/**
 * Sends remembered in memory at most with a database (older ones are read from there). A retry
 * comes moments after its send, and a new send is looked up in the database anyway, so a few
 * hundred serve; 10,000 held about 5.6 MB for nothing.
 */
export const MAX_CACHED_SENDS = 256;

/**
 * The replay log of one agent. The events of the tasks this server runs stay in memory while
 * they are live (every read of them is answered from here, so a replay never waits for a write);
 * with a database they are written behind, batched like the task store's progress (one
 * multi-row insert per `delayMs`, at once for a terminal event), and read from there once the
 * task has ended or when another server of a fleet runs it. Memory only, a finished task's
 * events stay until the retention drops them.
 */
export class KeptEvents implements ReplayLog {
  private readonly tasks = new Map<string, TaskEvents>();
  private readonly sends = new Map<string, SendRow>();
  private pendingEvents: EventRow[] = [];
  private pendingSends: SendRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly pruner: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly o: KeptEventsOptions) {
    this.now = o.now ?? Date.now;
    this.pruner = setInterval(() => void this.prune(), o.pruneEveryMs ?? pruneInterval(o.retainMs));
    this.pruner.unref();
  }

  append(taskId: string, n: number, event: StreamResponse, ends: boolean, now = ends): void {
    let kept = this.tasks.get(taskId);
    if (kept === undefined)
      this.tasks.set(taskId, (kept = { events: [], endedAt: undefined, unwritten: 0 }));
    kept.events.push({ n, event });
    const at = this.now();
    if (ends) kept.endedAt = at;
    if (this.o.backend === undefined) return;
    kept.unwritten++;
    this.pendingEvents.push(new PendingEvent(taskId, n, at, ends, event));
    this.schedule(now);
  }

  async read(taskId: string, cursor: number, knownLast?: number): Promise<ReplayRead> {
    const local = this.complete(taskId);
    if (local !== undefined) return decide(cursor, local, knownLast);
    if (this.o.backend === undefined) return decide(cursor, [], knownLast);
    const { range, events } = await this.o.backend.read(taskId, cursor);
    const decision = replayDecision(cursor, range, knownLast);
    return decision === "events" ? { kind: "events", events } : decision;
  }

  async last(taskId: string): Promise<number | undefined> {
    const local = this.tasks.get(taskId)?.events.at(-1)?.n;
    if (local !== undefined || this.o.backend === undefined) return local;
    return (await this.o.backend.read(taskId, Number.MAX_SAFE_INTEGER)).range.last;
  }

  async findSend(scope: string, key: string): Promise<SentMessage | undefined> {
    const cached = this.sends.get(sendKey(scope, key));
    if (cached !== undefined) return cached;
    return this.o.backend?.findSend(scope, key);
  }

  recordSend(scope: string, key: string, sent: SentMessage): void {
    const row: SendRow = { ...sent, scope, key, at: this.now() };
    const id = sendKey(scope, key);
    this.sends.delete(id);
    this.sends.set(id, row);
    if (this.o.backend === undefined) return;
    if (this.sends.size > MAX_CACHED_SENDS) {
      const oldest = this.sends.keys().next().value;
      if (oldest !== undefined) this.sends.delete(oldest);
    }
    this.pendingSends.push(row);
    this.schedule(true);
  }

  /** Sends answered from memory, for tests of the bound. */
  get cachedSends(): number {
    return this.sends.size;
  }

  flush(): Promise<void> {
    const next = this.writing.then(() => this.writePending());
    this.writing = next;
    return next;
  }

  async close(): Promise<void> {
    clearInterval(this.pruner);
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    await this.flush();
  }

  /** Drops what the retention no longer keeps; returns how many events the database deleted. */
  async prune(): Promise<number> {
    const cutoff = this.now() - this.o.retainMs;
    for (const [taskId, kept] of this.tasks) {
      if (kept.endedAt !== undefined && kept.endedAt < cutoff) this.tasks.delete(taskId);
    }
    for (const [id, row] of this.sends) {
      if (row.at < cutoff && !this.tasks.has(row.taskId)) this.sends.delete(id);
    }
    if (this.o.backend === undefined) return 0;
    try {
      return await this.o.backend.prune(cutoff);
    } catch (err) {
      this.o.logger.warn({ err }, "pruning replay events failed");
      return 0;
    }
  }

  /** The task's events when this server has all of them (it ran the task from its start). */
  private complete(taskId: string): readonly KeptEvent[] | undefined {
    const kept = this.tasks.get(taskId);
    return kept !== undefined && kept.events[0]?.n === 1 ? kept.events : undefined;
  }

  private schedule(now: boolean): void {
    if (now) {
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        void this.flush();
      });
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.o.delayMs ?? FLEET_EVENTS_DELAY_MS);
  }

  private async writePending(): Promise<void> {
    const backend = this.o.backend;
    if (backend === undefined) return;
    const events = this.pendingEvents;
    const sends = this.pendingSends;
    if (events.length === 0 && sends.length === 0) return;
    this.pendingEvents = [];
    this.pendingSends = [];
    try {
      await backend.write(events, sends);
    } catch (err) {
      // Kept for the next write, in order (a database that is back takes them then).
      this.pendingEvents = [...events, ...this.pendingEvents];
      this.pendingSends = [...sends, ...this.pendingSends];
      this.o.logger.error({ err, events: events.length }, "could not keep events for replay");
      this.schedule(false);
      return;
    }
    for (const row of events) {
      const kept = this.tasks.get(row.taskId);
      if (kept === undefined) continue;
      kept.unwritten--;
      // Ended and written: read from the database from now on.
      if (kept.endedAt !== undefined && kept.unwritten === 0) this.tasks.delete(row.taskId);
    }
  }
}

/** An event to write; its JSON is made at write time, off the event's path, once. */
class PendingEvent implements EventRow {
  private serialized: string | undefined;
  constructor(
    readonly taskId: string,
    readonly n: number,
    readonly at: number,
    readonly ends: boolean,
    private readonly event: StreamResponse,
  ) {}

  get json(): string {
    return (this.serialized ??= JSON.stringify(StreamResponse.toJSON(this.event)));
  }
}

function decide(cursor: number, events: readonly KeptEvent[], knownLast?: number): ReplayRead {
  const range = { oldest: events[0]?.n, last: events.at(-1)?.n };
  const decision = replayDecision(cursor, range, knownLast);
  if (decision !== "events") return decision;
  const from = events.findIndex((e) => e.n > cursor);
  return { kind: "events", events: from === -1 ? [] : events.slice(from) };
}

const sendKey = (scope: string, key: string) => `${scope}\u0000${key}`;
