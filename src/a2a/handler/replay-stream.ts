import type { StreamResponse, Task } from "@a2a-js/sdk";
import { RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { KeptEvent, ReplayLog } from "../../store/replay-log.js";
import { REPLAY_TEXT } from "../../contract/replay.js";
import { isTerminalState } from "../../contract/task-states.js";
import { endsStream, eventNumberOf } from "../channel/event-numbers.js";
import { numberInMetadata } from "./replay-request.js";

export interface ReplaySource {
  readonly taskId: string;
  /** The last number the client has; undefined: start from the task's snapshot. */
  readonly cursor: number | undefined;
  readonly log: ReplayLog;
  /** The task as its caller may read it (throws TaskNotFound as GetTask does). */
  readonly task: () => Promise<Task>;
  /** The SDK's subscribe through the inner handler: the task's snapshot, then its live events. */
  readonly live: () => AsyncGenerator<StreamResponse, void, undefined>;
  /** How long a read waits for events written behind on another server (a fleet). */
  readonly lag?: { readonly attempts: number; readonly waitMs: number };
}

type Live = AsyncIterator<StreamResponse, void, undefined>;

const DEFAULT_LAG = { attempts: 20, waitMs: 100 };
/** A task that ended this recently may still have events on their way to the database. */
const RECENT_END_MS = 5_000;

/**
 * The stream of a subscribe or a repeated send from a cursor: exactly the kept events after it,
 * then the live ones. The live subscription is opened first, so every event published after the
 * kept ones were read arrives through it; an event it brings that is already sent is dropped,
 * and a hole before one (events still being written elsewhere) is filled from the log. Ends
 * where a live stream ends: at input-required or a terminal status.
 */
export async function* replayEvents(
  s: ReplaySource,
): AsyncGenerator<StreamResponse, void, undefined> {
  const lag = s.lag ?? DEFAULT_LAG;
  if (s.cursor === undefined) {
    const live = s.live()[Symbol.asyncIterator]();
    try {
      const first = await live.next();
      if (first.done === true) return;
      yield first.value;
      const n =
        first.value.payload?.$case === "task"
          ? numberInMetadata(first.value.payload.value.metadata)
          : undefined;
      yield* follow(s, live, n ?? 0, lag);
    } finally {
      await live.return?.();
    }
    return;
  }
  const task = await s.task();
  const known = numberInMetadata(task.metadata) ?? 0;
  const terminal = isTerminalState(task.status?.state);
  const live = terminal ? undefined : await openLive(s.live);
  try {
    const recent =
      !terminal || Date.now() - Date.parse(task.status?.timestamp ?? "") < RECENT_END_MS;
    const kept = await readKept(s, s.cursor, known, recent ? lag : { attempts: 0, waitMs: 0 });
    let last = s.cursor;
    for (const e of kept) {
      yield e.event;
      last = e.n;
      if (endsStream(e.event)) return;
    }
    if (live === undefined) {
      // Ended: what the log still lacks of it (written behind) is on its way.
      yield* catchUp(s, last, known, lag);
      return;
    }
    yield* follow(s, live, last, lag);
  } finally {
    await live?.return?.();
  }
}

/** The live subscription past its snapshot; undefined when the task ended meanwhile. */
async function openLive(open: ReplaySource["live"]): Promise<Live | undefined> {
  const live = open()[Symbol.asyncIterator]();
  try {
    const first = await live.next();
    return first.done === true ? undefined : live;
  } catch (err) {
    if (err instanceof UnsupportedOperationError) return undefined; // terminal by now
    throw err;
  }
}

/** The live events after `last`, holes filled from the log; then what the log has after them. */
async function* follow(
  s: ReplaySource,
  live: Live,
  last: number,
  lag: NonNullable<ReplaySource["lag"]>,
): AsyncGenerator<StreamResponse, void, undefined> {
  for (;;) {
    const next = await live.next();
    if (next.done === true) break;
    const item = next.value;
    const n = eventNumberOf(item);
    if (n !== undefined) {
      if (n <= last) continue;
      if (n > last + 1) {
        for (const e of await fill(s, last, n, lag)) {
          yield e.event;
          last = e.n;
          if (endsStream(e.event)) return;
        }
      }
      last = n;
    }
    yield item;
    if (endsStream(item)) return;
  }
  // The live stream ended without an end (no bus here for it): what the log has after it.
  yield* catchUp(s, last, 0, lag);
}

/** The kept events after `last`, until an end or what `known` says is there. */
async function* catchUp(
  s: ReplaySource,
  last: number,
  known: number,
  lag: NonNullable<ReplaySource["lag"]>,
): AsyncGenerator<StreamResponse, void, undefined> {
  const events = await readKept(s, last, known, lag).catch(() => [] as readonly KeptEvent[]);
  for (const e of events) {
    yield e.event;
    if (endsStream(e.event)) return;
  }
}

/** The events between `last` and `n` (exclusive), waiting a little for them to be written. */
async function fill(
  s: ReplaySource,
  last: number,
  n: number,
  lag: NonNullable<ReplaySource["lag"]>,
): Promise<readonly KeptEvent[]> {
  const events = await readKept(s, last, n - 1, lag);
  return events.filter((e) => e.n < n);
}

/**
 * The kept events after `cursor`. When fewer are kept than the task is known to have (`known`:
 * written behind, by another server of a fleet), it waits for them, at most `lag`. A cursor
 * older than what is kept, or past the last event: InvalidParams naming the oldest available.
 */
async function readKept(
  s: ReplaySource,
  cursor: number,
  known: number,
  lag: NonNullable<ReplaySource["lag"]>,
): Promise<readonly KeptEvent[]> {
  for (let attempt = 0; ; attempt++) {
    const read = await s.log.read(s.taskId, cursor, known);
    // Past the last event is the client's mistake: no wait helps it.
    const short =
      read.kind === "gone" || (read.kind === "events" && (read.events.at(-1)?.n ?? cursor) < known);
    if (!short || attempt >= lag.attempts) {
      switch (read.kind) {
        case "events":
          return read.events;
        case "gone":
          throw new RequestMalformedError(REPLAY_TEXT.tooOld(s.taskId, cursor, read.oldest));
        case "ahead":
          throw new RequestMalformedError(REPLAY_TEXT.ahead(s.taskId, cursor, read.last));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, lag.waitMs));
  }
}
