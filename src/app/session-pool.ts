/**
 * The agent's session pool: how conversations get their sessions (`sessionFactory`), the spares
 * (`sessions.spares`), the transcripts a mapped session is checked against, and the pid file each
 * process is recorded in. Kept out of `agent.ts`, which only calls it.
 */
import type { SessionEvent } from "../claude/index.js";
import {
  readTranscriptSync,
  recordBranchSync,
  rewindPoint,
  transcriptChecks,
} from "../claude/index.js";
import type { Clock } from "../common/timers.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { SlotsFactory } from "../sessions/machine-slots.js";
import type { OrphanGuard } from "../sessions/orphans.js";
import { SessionPool } from "../sessions/pool.js";
import type { SpareSite } from "../sessions/spare-sessions.js";
import type { SessionMap } from "../store/session-map.js";
import { poolSpares, sessionFactory, type SessionWiring } from "./session-factory.js";

export interface PoolWiring {
  readonly sessionMap: SessionMap;
  readonly orphans: OrphanGuard;
  /** Where spares start: the workspace, or its spare worktree. */
  readonly spareSite: SpareSite;
  /** The environment the transcripts are found with (`CLAUDE_CONFIG_DIR`). */
  readonly transcriptEnv: Record<string, string> | undefined;
  readonly slots: SlotsFactory | undefined;
  /** The wall clock of the thrash warning (tests: a manual one). */
  readonly clock?: Clock;
  /** Sees every event of every live session (metrics, sandbox denials). */
  readonly onSessionEvent: (key: ConversationKey, event: SessionEvent) => void;
}

export function openSessionPool(w: SessionWiring, p: PoolWiring): SessionPool {
  const { config, logger, cwdOf } = w;
  const env = p.transcriptEnv;
  // One per pool: the SDK's project key of each folder is asked once (the startup sweep checks all).
  const checks = transcriptChecks(env);
  return new SessionPool({
    sessionMap: p.sessionMap,
    createSession: sessionFactory(w),
    spares: poolSpares(w, {
      site: p.spareSite,
      // A spare's process is recorded in the pid file like any other: no orphan after kill -9.
      onChange: () => void p.orphans.record(),
    }),
    idleTimeoutMs: config.sessions.idleTimeoutMs,
    maxLive: config.sessions.maxLive,
    minIdleBeforeEvictMs: config.sessions.minIdleBeforeEvictMs,
    maxBackgroundMs: config.sessions.maxBackgroundMs,
    logger: logger.child({ component: "sessions" }),
    checkTranscript: (sessionId, key) => checks(cwdOf(key))(sessionId),
    rewindPoint: (sessionId, key) =>
      rewindPoint(readTranscriptSync({ cwd: cwdOf(key), env }, sessionId)),
    recordBranch: (sessionId, prompt, key) =>
      recordBranchSync({ cwd: cwdOf(key), env }, sessionId, prompt),
    ...(p.slots && { slots: p.slots }),
    ...(p.clock && { clock: p.clock }),
    onSessionEvent: p.onSessionEvent,
    // A spare taken by a conversation is the same process: listed already, nothing to read again.
    onProcessesChanged: () => void p.orphans.record(),
  });
}
