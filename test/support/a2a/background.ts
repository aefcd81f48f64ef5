import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  conversationKey,
  parseConversationKey,
  type ConversationKey,
} from "../../../src/identity/conversation.js";
import { SESSIONS_FILE } from "../../../src/store/session-map.js";
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
export async function conversationKeyOf(
  cwd: string,
  contextId: string,
): Promise<ConversationKey | undefined> {
  let text: string;
  try {
    text = await readFile(join(cwd, SESSIONS_FILE), "utf8");
  } catch {
    return undefined;
  }
  const { sessions } = JSON.parse(text) as { sessions: Record<string, unknown> };
  const conversation = Object.keys(sessions)
    .map(parseConversationKey)
    .find((c) => c?.contextId === contextId);
  return conversation && conversationKey(conversation);
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
