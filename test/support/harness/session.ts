/**
 * A `ClaudeSession` on the real runtime, for the session-level tests (no A2A server): opened on a
 * bench (`openBenchSession`: counted spawns, event log, debug log on failure) and closed when the
 * test ends; its timeline read whole.
 */
import type {
  ClaudeSession,
  ClaudeSessionOptions,
  TimelineEntry,
} from "../../../src/claude/index.js";
import type { TestBench } from "../bench.js";
import { openBenchSession } from "../session-bench.js";
import { perTest } from "./scope.js";

/** A session on `b`'s runtime sandbox and scripted model, closed when the test ends. */
export function openSession(b: TestBench, extra: Partial<ClaudeSessionOptions> = {}) {
  const opened = openBenchSession(b, extra);
  perTest(opened.session);
  return opened;
}

/** The session's whole timeline (`streamHistory()`), in order. */
export async function history(s: ClaudeSession): Promise<TimelineEntry[]> {
  const out: TimelineEntry[] = [];
  for await (const e of s.streamHistory()) out.push(e);
  return out;
}
