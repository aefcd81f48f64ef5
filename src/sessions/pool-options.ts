/** How a `SessionPool` is made: what it is given (`pool.ts` re-exports these). */
import type { Logger } from "pino";
import type { BranchEnd, ClaudeSession, SessionEvent, TranscriptCheck } from "../claude/index.js";
import type { Clock, Timers } from "../common/timers.js";
import type { ConversationKey } from "../identity/conversation.js";
import type { SessionMap } from "../store/session-map.js";
import type { SlotsFactory } from "./machine-slots.js";
import type { PoolSparesOptions } from "./pool-spares.js";

export interface SessionFactoryArgs {
  /** The conversation (caller + context) the session serves. */
  readonly key: ConversationKey;
  /** The Claude session to resume, from the persisted map. */
  readonly resume: string | undefined;
  /** Resume only up to this assistant message (a rejected prompt after it is dropped). */
  readonly resumeAt?: string;
  /** Resume into a new session id (a fork), leaving the resumed one as it is. */
  readonly fork?: boolean;
}

export interface SessionPoolOptions {
  readonly sessionMap: SessionMap;
  readonly createSession: (args: SessionFactoryArgs) => ClaudeSession;
  /** An idle session (no run, no background task, no lease) is closed after this long. */
  readonly idleTimeoutMs: number;
  /**
   * Most Claude Code processes at once, counting those still shutting down. `acquire` never waits
   * (it may go over); `whenFree` waits until a new conversation's process fits under the cap.
   */
  readonly maxLive: number;
  /**
   * The eviction grace (ms, default 0): a session idle for less than this is closed for another
   * conversation only after every other idle one (`evictionOrder`); it never makes anyone wait.
   */
  readonly minIdleBeforeEvictMs?: number;
  /**
   * A session busy only with background work this long (ms) has that work stopped, and can be
   * closed. 0 or unset: never.
   */
  readonly maxBackgroundMs?: number;
  /** The clock of the eviction grace (ms). */
  readonly now?: () => number;
  readonly logger: Logger;
  readonly timers?: Timers;
  /** The wall clock of the thrash warning's window (`cap-thrash.ts`); default: the real one. */
  readonly clock?: Clock;
  /** Sees every event of every live session (metrics). */
  readonly onSessionEvent?: (key: ConversationKey, event: SessionEvent) => void;
  /**
   * A conversation's process started or ended (`changesProcesses`): the pid file of the orphan
   * sweep is written again. A spare's start and end are the spares' own (`onChange`).
   */
  readonly onProcessesChanged?: () => void;
  /**
   * Where to resume a session whose last prompt the model API rejected (HTTP 400): the uuid of
   * the last assistant message before that prompt, or undefined to start fresh.
   */
  readonly rewindPoint?: (sessionId: string, key: ConversationKey) => string | undefined;
  /**
   * Before a session whose rewound branch (begun with `prompt`) has run is resumed: makes the
   * runtime's record name that branch (`recordBranchSync`). Without it: a plain resume.
   */
  readonly recordBranch?: (sessionId: string, prompt: string, key: ConversationKey) => BranchEnd;
  /** Whether a mapped session can still be resumed; without it every mapping is trusted. */
  readonly checkTranscript?: TranscriptCheck;
  /**
   * Where the process slots come from (several workspaces share one machine-wide cap,
   * `MachineSlots`). Default: slots of this pool alone, capped at `maxLive`.
   */
  readonly slots?: SlotsFactory;
  /** `sessions.spares`: processes started ahead, which new conversations take. Default: none. */
  readonly spares?: PoolSparesOptions;
}
