import { realClock, realTimers, type Clock, type Timers } from "../../common/timers.js";
import { runGit } from "./git.js";

/**
 * A fresh checkout's index is "racily clean": git writes it in the same second as the files, so
 * it cannot trust their timestamps and reads every file again on each command that looks at the
 * worktree (`git status` from the runtime's first turn, `git add --all` at the task's end: about
 * 0.1–0.25 s of CPU each at 20,000 files, measured) until an index is written at a later second.
 * A spare worktree waits that long anyway, so it gets such an index in the background:
 * `git update-index --refresh`, once the clock has passed the checkout's second.
 */

/**
 * Past the second the files were written in, with a margin for the file system's coarse clock
 * (it can trail the wall clock by a tick).
 */
const MARGIN_MS = 20;

/** How long to wait after `now` so that an index written then is later than `writtenAt`. Pure. */
export function refreshDelayMs(writtenAt: number, now: number): number {
  const nextSecond = (Math.floor(writtenAt / 1000) + 1) * 1000;
  return Math.max(0, nextSecond + MARGIN_MS - now);
}

/** A refresh on its way: `cancel` stops it (the wait, or git with its lock) and resolves after. */
export interface PendingRefresh {
  /** Resolves when the refresh is done, failed or cancelled; never rejects. */
  readonly done: Promise<void>;
  cancel(): Promise<void>;
}

/**
 * Refreshes the index of the worktree `dir`, whose files were last written at `writtenAt`, as
 * soon as that cannot leave it racily clean. Failures are the caller's `onError` (the worktree
 * works as it is, only slower).
 */
export function refreshIndexLater(
  dir: string,
  writtenAt: number,
  onError: (err: unknown) => void,
  seams: { timers?: Timers; clock?: Clock } = {},
): PendingRefresh {
  const timers = seams.timers ?? realTimers;
  const clock = seams.clock ?? realClock;
  const abort = new AbortController();
  const done = new Promise<void>((resolve) => {
    const handle = timers.setTimeout(
      () => {
        abort.signal.removeEventListener("abort", stopWaiting);
        runGit(dir, ["update-index", "-q", "--refresh"], { signal: abort.signal, okCodes: [1] })
          .catch((err: unknown) => {
            if (!abort.signal.aborted) onError(err);
          })
          .finally(resolve);
      },
      refreshDelayMs(writtenAt, clock.now()),
    );
    const stopWaiting = () => {
      timers.clearTimeout(handle);
      resolve();
    };
    abort.signal.addEventListener("abort", stopWaiting, { once: true });
  });
  return {
    done,
    cancel: async () => {
      abort.abort();
      await done;
    },
  };
}
