import { z } from "zod";
import { minutes, positiveInt } from "./schema-parts.js";

/** `sessions`: the Claude Code processes, how many live, how long, and the spares. */
export const sessionsSchema = z.strictObject({
  idleTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe("Close a live Claude session idle this long (ms); it resumes on the next message."),
  maxLive: positiveInt()
    .default(8)
    .describe(
      "Most Claude Code processes at once, counting those still shutting down and a " +
        "delivery's reviewer (docs/delivery.md); when a " +
        "conversation needs one and all are taken, the least recently used idle one is closed.",
    ),
  minIdleBeforeEvictMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected a whole number of milliseconds" })
    .default(1_000)
    .describe(
      "The eviction grace (ms): when a conversation needs a process and every slot of maxLive " +
        "is taken, the least recently used idle session is closed at once, but one idle for " +
        "less than this (its last turn just ended) only after every other idle one. It never " +
        "makes a conversation wait.",
    ),
  spares: z
    .int({ error: "expected a whole number of spare processes (0: none)" })
    .min(0, { error: "expected a whole number of spare processes (0: none)" })
    .max(8, { error: "expected at most 8 spare processes" })
    .default(1)
    .describe(
      "Claude Code processes kept started ahead, with the workspace's options, so that a new " +
        "conversation takes one instead of waiting for a process to start (about 160 MB of " +
        "memory each while idle, see docs/spares.md). They count against maxLive and are the " +
        "first closed when a conversation needs a slot. 0: none.",
    ),
  spareIdleMs: positiveInt()
    .default(minutes(30))
    .describe(
      "A spare process not taken for this long (ms) is replaced by a fresh one; one started " +
        "before the workspace's settings or CLAUDE.md changed is replaced at once.",
    ),
  maxBackgroundMs: z
    .int({ error: "expected a whole number of milliseconds (0: never)" })
    .min(0, { error: "expected a whole number of milliseconds (0: never)" })
    .default(4 * 60 * 60_000)
    .describe(
      "A session whose only activity is background work (a dev server, a watcher) counts as " +
        "busy; after this long (ms) with no message of a client running in it, its background " +
        "work is stopped and the session can be closed. 0: never stop it.",
    ),
});
