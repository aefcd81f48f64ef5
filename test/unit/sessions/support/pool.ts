/**
 * What the session-pool tests share: the pool's key, a manual clock, and a fresh session map per
 * test with a pool over the file's own fake sessions (each file fakes what its pool reads).
 */
import { pino } from "pino";
import { afterEach, beforeEach } from "vitest";
import type { ClaudeSession } from "../../../../src/claude/index.js";
import { conversationKey } from "../../../../src/identity/conversation.js";
import {
  SessionPool,
  type SessionFactoryArgs,
  type SessionPoolOptions,
  type Timers,
} from "../../../../src/sessions/pool.js";
import type { SessionMap } from "../../../../src/store/session-map.js";
import { openLocalSessionMap } from "../../../../src/store/open-session-map.js";
import { tempDir, type TempDir } from "../../../support/harness/temp.js";

/** The pool is keyed by conversation: a caller's context. */
export const key = (contextId: string) => conversationKey({ owner: "unknown", contextId });

/** A manual clock: timers fire only when the test advances it, in the order they are due. */
export class ManualTimers implements Timers {
  now = 0;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get armed(): number {
    return this.pending.size;
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at);
      const next = due[0];
      if (next === undefined) break;
      this.pending.delete(next[0]);
      this.now = next[1].at;
      next[1].fn();
    }
    this.now = until;
  }
}

export interface PoolFixture<S> {
  /** This test's directory, holding its session map. */
  readonly dir: string;
  readonly sessionMap: SessionMap;
  /** The sessions this test's pools created, oldest first. */
  readonly created: S[];
  /** A pool over this test's map and `S` sessions: idle after 60 s, at most 10 live. */
  pool(options?: Partial<SessionPoolOptions>): SessionPool;
}

/** Registers a fresh directory and session map for each test (flushed and removed after it). */
export function usePoolFixture<S>(
  prefix: string,
  makeSession: (args: SessionFactoryArgs) => S,
): PoolFixture<S> {
  let temp: TempDir | undefined;
  let map: SessionMap | undefined;
  const created: S[] = [];
  beforeEach(async () => {
    temp = await tempDir(prefix);
    map = await openLocalSessionMap({ cwd: temp.path, logger: { warn: () => undefined } });
    created.length = 0;
  });
  afterEach(async () => {
    await map?.close();
    await temp?.close();
    temp = map = undefined;
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the pool fixture is read outside a test");
    return value;
  };
  const fixture: PoolFixture<S> = {
    get dir() {
      return current(temp).path;
    },
    get sessionMap() {
      return current(map);
    },
    created,
    pool: (options = {}) =>
      new SessionPool({
        sessionMap: fixture.sessionMap,
        createSession: (args) => {
          const session = makeSession(args);
          created.push(session);
          return session as unknown as ClaudeSession;
        },
        idleTimeoutMs: 60_000,
        maxLive: 10,
        logger: pino({ level: "silent" }),
        ...options,
      }),
  };
  return fixture;
}
