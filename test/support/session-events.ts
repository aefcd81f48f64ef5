import type { ClaudeSession, RunStreamEvent, SessionEvent } from "../../src/claude/index.js";

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

interface Waiter {
  from: number;
  pred: (event: SessionEvent) => boolean;
  resolve: (event: SessionEvent) => void;
}

/**
 * Every event of one session, in order, since it was created. `waitFor` looks at the events
 * already seen (from an index on) and then at new ones; a bounded wait fails with a message
 * instead of hanging the test.
 */
export class SessionEventLog {
  readonly events: SessionEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly unsubscribe: () => void;

  constructor(session: Pick<ClaudeSession, "subscribe">) {
    this.unsubscribe = session.subscribe((event) => {
      this.events.push(event);
      const index = this.events.length - 1;
      for (const w of [...this.waiters]) {
        if (index >= w.from && w.pred(event)) {
          this.waiters.delete(w);
          w.resolve(event);
        }
      }
    });
  }

  /** The index the next event will have: pass it as `from` to wait for what comes after now. */
  mark(): number {
    return this.events.length;
  }

  of<T extends SessionEvent["type"]>(type: T, from = 0): EventOf<T>[] {
    return this.events
      .slice(from)
      .filter((e): e is EventOf<T> => e.type === type)
      .map((e) => e);
  }

  waitFor<E extends SessionEvent>(
    pred: ((event: SessionEvent) => event is E) | ((event: SessionEvent) => boolean),
    { timeoutMs, what, from = 0 }: { timeoutMs: number; what: string; from?: number },
  ): Promise<E> {
    const seen = this.events.slice(from).find((e) => pred(e));
    if (seen !== undefined) return Promise.resolve(seen as E);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        from,
        pred,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event as E);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Waits for the first event of `type` (from `from` on) that satisfies `pred`. */
  waitForType<T extends SessionEvent["type"]>(
    type: T,
    pred: (event: EventOf<T>) => boolean,
    opts: { timeoutMs: number; what: string; from?: number },
  ): Promise<EventOf<T>> {
    return this.waitFor((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>), opts);
  }

  stop(): void {
    this.unsubscribe();
  }
}

/** Resolves `promise`, or rejects with `what` after `timeoutMs`: a hang becomes a failure. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every event of one run's stream, up to its terminal event; a hang fails with `what`. */
export async function collectRun(
  stream: AsyncIterable<RunStreamEvent>,
  what: string,
  timeoutMs = 30_000,
): Promise<RunStreamEvent[]> {
  const out: RunStreamEvent[] = [];
  const read = async () => {
    for await (const e of stream) out.push(e);
  };
  await within(read(), timeoutMs, what);
  return out;
}

/** The text of a run's streamed text deltas. */
export function streamedText(events: readonly RunStreamEvent[]): string {
  return events
    .flatMap((e) =>
      e.kind === "stream" && e.part.type === "content_block_delta" && e.part.delta.type === "text"
        ? [e.part.delta.text]
        : [],
    )
    .join("");
}
