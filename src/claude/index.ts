export { ClaudeSession } from "./session.js";
export type { FinishStatus, RunSnapshot, RunStream, UserPrompt } from "./session.js";
export type { ClaudeSessionOptions } from "./options.js";
export { DEFAULT_SETTING_SOURCES } from "./options.js";
export { PERMISSION_MODES, isPermissionMode } from "./permission-modes.js";
export type {
  RunSentEvent,
  RunSteeredEvent,
  RunStreamEvent,
  RunTerminalEvent,
  SessionEvent,
  SessionListener,
} from "./events.js";
export type { AttributedPermissionOptions, SessionCanUseTool } from "./permissions.js";
export type * from "./normalize.js";
export type { RunLifecycle, RunOrigin, RunOutcome, SessionStatus } from "./run-tracker.js";
export type { TurnStateName } from "./turn-state.js";
export type { SteerOutcome, SteerPriority } from "./steering.js";
export type { TurnSettings } from "./turn-settings.js";
export type { TimelineEntry, AssistantTimelineEntry, UserTimelineEntry } from "./timeline.js";
export type { BackgroundTask, BackgroundTaskStatus } from "./background-tasks.js";
export type { QueryFactory, QueryHandle, QueryParams } from "./sdk.js";
export { defaultQueryFactory } from "./sdk.js";
export type { HistoryLoader, HistoryLocation } from "./history.js";
export { childConfigDir, defaultHistoryLoader } from "./history.js";
export type { ModelUsage, RunUsage, TokenCounts, UsageTotals } from "./usage.js";
export { addModels, addTokens, roundUsd, ZERO_TOKENS } from "./usage.js";
export type { UsageBaselineLoader } from "./usage-baseline.js";
export { readTranscriptUsage, transcriptUsageSince } from "./transcript-usage.js";
export type { TranscriptUsage } from "./transcript-usage.js";
export { SESSION_NOT_FOUND, shareTranscript, transcriptChecks } from "./transcripts.js";
export type { TranscriptCheck, TranscriptLocation } from "./transcripts.js";
export { readTranscriptSync, rewindPoint } from "./rewind.js";
export { pointAfter, pointBefore, type BranchEnd, type ResumePoint } from "./resume-points.js";
export { recordBranchSync } from "./branch-record.js";
export type { SandboxViolation } from "./sandbox-violations.js";
