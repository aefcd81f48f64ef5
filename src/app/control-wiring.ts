import type { ControlEnvironment } from "../a2a/task/control-start.js";
import { readTranscriptSync, shareTranscript } from "../claude/index.js";
import type { SessionPool } from "../sessions/pool.js";

type ChildEnv = Record<string, string | undefined>;

/**
 * What rewind and fork borrow from the server (docs/control.md): the pool's restart of a
 * conversation at a point of a session, and the runtime's transcripts under each conversation's
 * folder (a fork under worktrees copies its source's transcript where its own process looks).
 */
export function controlEnvironment(
  pool: SessionPool,
  cwdOf: (key: string) => string,
  env: ChildEnv | undefined,
): ControlEnvironment {
  return {
    restartAt: (key, plan) => pool.restartAt(key, plan),
    settle: (key) => pool.closeIdle(key),
    transcript: (sessionId, key) => readTranscriptSync({ cwd: cwdOf(key), env }, sessionId),
    shareTranscript: async (sessionId, _from, to) => {
      await shareTranscript({ cwd: cwdOf(to), env }, sessionId);
    },
  };
}
