/**
 * `sessions.spares`: Claude Code processes started ahead of demand, with the options every
 * session of the workspace gets, so that a new conversation takes one (`take`) instead of
 * waiting for a process to start. They count against `sessions.maxLive` (the pool lists them as
 * occupants the slots close first), a dead one is replaced and never handed out, one idle too
 * long or started before the workspace's settings or CLAUDE.md changed is recycled. What to do
 * is `spares.ts`'s decision; this class only keeps the processes.
 */
import type { Logger } from "pino";
import type { ClaudeSession, SessionEvent } from "../claude/index.js";
import type { Timers } from "../common/timers.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { Occupant } from "./process-slots.js";
import { SpareSiteWatch, type WatchSettings } from "./spare-site-watch.js";
import { spareVerdict, supplyDecision } from "./spares.js";

/** A spare session and how it learns, once taken, which conversation it serves. */
export interface SpareHandle {
  readonly session: ClaudeSession;
  bind(key: ConversationKey): void;
}

/** Where spares run: the workspace, or (worktree isolation) the spare worktree once built. */
export interface SpareSite {
  /** The folder the next spare starts in; undefined while there is none. */
  current(): string | undefined;
}

export interface SpareSessionsOptions {
  /** `sessions.spares`: how many to keep ready (0: none). */
  readonly wanted: number;
  /** `sessions.spareIdleMs`: a spare this old is recycled. */
  readonly maxIdleMs: number;
  /** A session with the workspace's options, in `cwd`, not started. */
  readonly create: (cwd: string) => SpareHandle;
  readonly site: SpareSite;
  /** The workspace's settings and memory files as they are now, in one string. */
  readonly fingerprint: (cwd: string) => string;
  /** One more process fits under the cap with nobody waiting (`ProcessSlots.hasRoom`). */
  readonly room: () => boolean;
  /** New conversations' own processes have their first turn to get under way (a burst). */
  readonly starting?: () => boolean;
  /** No turn of the workspace runs or just ran (`spare-quiet.ts`); absent: always. */
  readonly quiet?: () => boolean;
  /** Calls `changed` when a settings or memory file of `cwd` may have changed; returns the stop. */
  readonly watch?: WatchSettings;
  /** The slots' count of processes still shutting down. */
  readonly closing: { started(): void; ended(): void };
  /** A spare process started or ended (the orphan pid file, the metrics). */
  readonly onChange?: () => void;
  /** Longest a taken spare's first turn holds the next one back (ms). */
  readonly maxHoldMs?: number;
  readonly timers: Timers;
  readonly now: () => number;
  readonly logger: Logger;
}

interface Spare {
  readonly key: ConversationKey;
  readonly handle: SpareHandle;
  readonly cwd: string;
  readonly fingerprint: string;
  readonly bornAt: number;
  alive: boolean;
  idleTimer: unknown;
  unsubscribe: () => void;
}

/** Spare keys never collide with a conversation's (those are hashes). */
const SPARE_PREFIX = "\u0001spare-";

export const isSpareKey = (key: string): boolean => key.startsWith(SPARE_PREFIX);

export class SpareSessions {
  private readonly spares: Spare[] = [];
  private serial = 0;
  private takenTotal = 0;
  private holding: { release: () => void } | undefined;
  private closed = false;
  private readonly siteWatch: SpareSiteWatch;

  constructor(private readonly o: SpareSessionsOptions) {
    this.siteWatch = new SpareSiteWatch(o.watch, o.timers, () => {
      if (!this.closed) this.refresh();
    });
  }

  /** Spare processes there (each holds a slot). */
  get count(): number {
    return this.spares.length;
  }

  /** Spares ready to be taken. */
  get ready(): number {
    return this.spares.filter((s) => s.alive).length;
  }

  /** Spares taken by a conversation since startup. */
  get taken(): number {
    return this.takenTotal;
  }

  /** For the slots: idle, and the first to go (`evictionOrder`). */
  occupants(): Occupant[] {
    return this.spares.map((s) => ({
      key: s.key,
      busy: false,
      lastUsed: -1,
      idleSince: s.bornAt,
      spare: true,
    }));
  }

  /** Closes the spare `key` (the slots want its slot for a conversation). */
  evict(key: ConversationKey, reason: string): void {
    const spare = this.spares.find((s) => s.key === key);
    if (spare !== undefined) void this.discard(spare, reason);
  }

  /**
   * The spare that serves a new conversation whose process runs in `cwd`, taken out of the set;
   * undefined when none can (`spareVerdict`). Spares that must never be handed out are closed
   * on the way. The next spare starts once this one's first turn is under way.
   */
  take(ask: { resumes: boolean; cwd: string }): SpareHandle | undefined {
    if (this.closed) return undefined;
    const fingerprints = new Map<string, string>();
    const now = this.o.now();
    for (const spare of [...this.spares]) {
      let fingerprint = fingerprints.get(spare.cwd);
      if (fingerprint === undefined) {
        fingerprint = this.o.fingerprint(spare.cwd);
        fingerprints.set(spare.cwd, fingerprint);
      }
      const verdict = spareVerdict(
        {
          alive: spare.alive,
          cwd: spare.cwd,
          fingerprint: spare.fingerprint,
          idleMs: now - spare.bornAt,
        },
        { ...ask, fingerprint, maxIdleMs: this.o.maxIdleMs },
      );
      switch (verdict.kind) {
        case "discard":
          void this.discard(spare, verdict.reason);
          continue;
        case "keep":
          continue;
        case "take":
          this.remove(spare);
          this.takenTotal++;
          this.hold(spare.handle.session);
          this.o.logger.debug({ spare: spare.key.slice(1), cwd: spare.cwd }, "spare taken");
          // No `onChange`: the same process runs on, now the conversation's (the pid file holds
          // it already); recording it again would read /proc in the taker's path.
          return spare.handle;
      }
    }
    this.fill();
    return undefined;
  }

  /** Starts a spare if one is wanted and fits (`supplyDecision`): a slot freed, a spare went… */
  fill(): void {
    const cwd = this.o.site.current();
    // The spare worktree was rebuilt elsewhere (HEAD moved): a spare in the old one is no use.
    if (cwd !== undefined && !this.closed) {
      for (const spare of this.spares.filter((s) => s.cwd !== cwd)) {
        void this.discard(spare, "its folder is no longer the spare's");
      }
    }
    const decision = supplyDecision({
      wanted: this.o.wanted,
      present: this.spares.length,
      holding: this.holding !== undefined,
      room: this.o.room(),
      starting: this.o.starting?.() ?? false,
      quiet: this.o.quiet?.() ?? true,
      site: cwd !== undefined,
      closed: this.closed,
    });
    if (decision.kind !== "start" || cwd === undefined) return;
    this.start(cwd);
  }

  /** Recycles the spares started before the workspace's settings or memory files changed. */
  refresh(): void {
    for (const spare of [...this.spares]) {
      if (this.o.fingerprint(spare.cwd) !== spare.fingerprint) {
        void this.discard(spare, "settings changed");
      }
    }
    this.fill();
  }

  /** Shutdown: no new spare; the ones there end. */
  async close(): Promise<void> {
    this.closed = true;
    this.holding?.release();
    this.siteWatch.close();
    await Promise.all([...this.spares].map((s) => this.discard(s, "the server is stopping")));
  }

  private start(cwd: string): void {
    const key = `${SPARE_PREFIX}${++this.serial}` as ConversationKey;
    let handle: SpareHandle;
    try {
      handle = this.o.create(cwd);
    } catch (err) {
      this.o.logger.warn({ err }, "a spare Claude Code process could not be made");
      return;
    }
    const spare: Spare = {
      key,
      handle,
      cwd,
      fingerprint: this.o.fingerprint(cwd),
      bornAt: this.o.now(),
      alive: true,
      idleTimer: undefined,
      unsubscribe: () => undefined,
    };
    spare.unsubscribe = handle.session.subscribe((event) => {
      // A spare has no run: its only news is its end (a crash, a kill).
      if (event.type !== "closed" || !spare.alive) return;
      spare.alive = false;
      if (this.spares.includes(spare)) void this.discard(spare, "dead");
    });
    spare.idleTimer = this.o.timers.setTimeout(() => {
      spare.idleTimer = undefined;
      void this.discard(spare, "idle too long");
    }, this.o.maxIdleMs);
    this.spares.push(spare);
    this.siteWatch.follow(cwd);
    handle.session.start();
    this.o.logger.debug({ spare: key.slice(1), cwd }, "spare Claude Code process started");
    this.o.onChange?.();
    // Several wanted: the next one starts after this one, not beside it.
    if (this.spares.length < this.o.wanted) this.o.timers.setTimeout(() => this.fill(), 0);
  }

  /** Takes it out of the set and ends its process; a replacement follows. */
  private discard(spare: Spare, reason: string): Promise<void> {
    if (!this.remove(spare)) return Promise.resolve();
    this.o.logger.debug({ spare: spare.key.slice(1), reason }, "spare Claude Code process closed");
    this.o.closing.started();
    const done = spare.handle.session
      .close()
      .catch((err: unknown) => this.o.logger.warn({ err }, "closing a spare failed"))
      .finally(() => {
        this.o.closing.ended();
        this.o.onChange?.();
        this.fill();
      });
    this.o.onChange?.();
    if (!this.closed) this.o.timers.setTimeout(() => this.fill(), 0);
    return done;
  }

  private remove(spare: Spare): boolean {
    const at = this.spares.indexOf(spare);
    if (at < 0) return false;
    this.spares.splice(at, 1);
    spare.unsubscribe();
    if (spare.idleTimer !== undefined) this.o.timers.clearTimeout(spare.idleTimer);
    spare.idleTimer = undefined;
    return true;
  }

  /** Holds the next spare back until the taking conversation's first turn is under way. */
  private hold(session: ClaudeSession): void {
    this.holding?.release();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      unsubscribe();
      this.o.timers.clearTimeout(timer);
      if (this.holding === holding) this.holding = undefined;
      if (!this.closed) this.fill();
    };
    const holding = { release };
    const unsubscribe = session.subscribe((event: SessionEvent) => {
      // The model is answering (the runtime's own start-up work is done) or the turn is over.
      if (event.type === "run_event" || event.type === "run_ended" || event.type === "closed") {
        release();
      }
    });
    const timer = this.o.timers.setTimeout(release, this.o.maxHoldMs ?? 10_000);
    this.holding = holding;
  }
}
