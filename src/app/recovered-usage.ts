/**
 * The usage of a task the previous process left unfinished, as restart recovery records it: the
 * model calls its conversation's transcript holds since the task's first event. The run tracker
 * that metered them died with that process, and so did the runtime's cost estimate (saved only
 * at a clean exit): tokens by model and model calls are kept, `costUsd` is 0 (docs/limits.md).
 */
import { readTranscriptUsage, type TranscriptUsage } from "../claude/index.js";
import type { TaskUsage } from "../contract/usage.js";
import { conversationKey } from "../identity/conversation.js";
import type { RecoveredUsage } from "../store/recovery.js";
import type { SessionMap } from "../store/session-map.js";

/** A transcript's figures as a task's `metadata.usage`. Pure. */
export function taskUsageOf(usage: TranscriptUsage): TaskUsage {
  return {
    costUsd: 0,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheCreationTokens: usage.cacheCreationTokens,
    models: usage.models,
    modelTurns: usage.modelCalls,
    durationMs: 0,
    runs: usage.prompts,
  };
}

/** Reads a recovered task's usage from its conversation's mapped session's transcript. */
export function transcriptRecoveredUsage(
  sessionMap: Pick<SessionMap, "get">,
  claudeEnv: Record<string, string | undefined> | undefined,
): RecoveredUsage {
  return async ({ owner, task }, startedAt) => {
    const entry = sessionMap.get(conversationKey({ owner, contextId: task.contextId }));
    if (entry === undefined) return undefined;
    const usage = await readTranscriptUsage(entry.sessionId, startedAt, claudeEnv);
    return usage && taskUsageOf(usage);
  };
}
