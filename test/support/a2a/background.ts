import {
  conversationKey,
  parseConversationKey,
  type ConversationKey,
} from "../../../src/identity/conversation.js";
import { readSessionMap } from "../harness/session-map.js";
import { reply, text, toolUse, type Rule } from "../harness/model.js";

/** A background Bash tool call, as the model asks for it. */
export const backgroundBash = (command: string, description: string) =>
  toolUse("Bash", { command, description, run_in_background: true });

/**
 * The first two steps of a background job: "Start the job" launches `command` in the background
 * (description "Run the job"), and the tool result gets "Job started.". The wake's rule is the
 * test's own.
 */
export function startJobRules(command: string): Rule[] {
  return [
    {
      name: "start-job",
      match: { lastUserText: "Start the job", toolResult: false },
      reply: reply(backgroundBash(command, "Run the job")),
    },
    {
      name: "started",
      match: { toolResult: /running in background/i },
      reply: reply(text("Job started.")),
    },
  ];
}

/** A model request of a wake: the runtime's task notification, not a tool result. */
export const isWakeRequest = (r: { lastUserText: string; toolResults: readonly unknown[] }) =>
  r.lastUserText.includes("<task-notification>") && r.toolResults.length === 0;

/**
 * The session-pool key of a context's conversation (the pool and the session map are keyed by
 * caller and context), from the session map: undefined until the session's id is written there.
 */
export function conversationKeyOf(
  cwd: string,
  contextId: string,
): Promise<ConversationKey | undefined> {
  const sessions = readSessionMap(cwd);
  const conversation = [...sessions.keys()]
    .map(parseConversationKey)
    .find((c) => c?.contextId === contextId);
  return Promise.resolve(conversation && conversationKey(conversation));
}

/** `conversationKeyOf` once the map is known to hold it: throws rather than look up nothing. */
export async function mappedConversationKey(
  cwd: string,
  contextId: string,
): Promise<ConversationKey> {
  const key = await conversationKeyOf(cwd, contextId);
  if (key === undefined) throw new Error(`no session-map entry for context ${contextId}`);
  return key;
}
