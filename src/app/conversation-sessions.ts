import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import {
  changedFilePath,
  FILE_TOOL_MATCHER,
  fileOperation,
} from "../a2a/content/file-artifacts.js";
import type { ClaudeAgentExecutor } from "../a2a/routing/executor.js";
import { ClaudeSession, type QueryFactory } from "../claude/index.js";
import type { Config } from "../config/schema.js";
import { parseConversationKey, type ConversationKey } from "../identity/conversation.js";
import type { SessionFactoryArgs } from "../sessions/pool.js";
import type { PassthroughOptions } from "../sessions/session-options.js";
import type { SpareHandle } from "../sessions/spare-sessions.js";

/**
 * How the sessions of one workspace are made: every one with the workspace's options (model,
 * permission mode, tools, settings sources, MCP servers, env, sandbox, hooks, permission
 * prompts), for a conversation known at once (`createSession`) or, as a spare, for the
 * conversation that will take it (`createSpare`): its callbacks ask whose it is when they run,
 * and before it is taken nothing runs in it that would call them.
 */
export interface ConversationSessionsOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly claudeEnv: Record<string, string | undefined> | undefined;
  readonly passthrough: PassthroughOptions;
  readonly sdkOptions: Partial<Options> | undefined;
  readonly queryFactory: QueryFactory | undefined;
  /** The folder a conversation's process runs in. */
  readonly cwdOf: (key: ConversationKey) => string;
  /** Read only when a session calls it (the executor is built after the pool). */
  readonly executor: () => ClaudeAgentExecutor;
}

/** Who a session serves: known at once, or once a conversation takes the spare. */
interface Owner {
  key(): ConversationKey | undefined;
}

export function conversationSessions(o: ConversationSessionsOptions): {
  createSession: (args: SessionFactoryArgs) => ClaudeSession;
  createSpare: (cwd: string) => SpareHandle;
} {
  const build = (owner: Owner, cwd: string, resume?: string, resumeAt?: string) => {
    const { config } = o;
    const known = owner.key();
    const conversation = known === undefined ? undefined : parseConversationKey(known);
    const sdkOptions =
      resumeAt === undefined ? o.sdkOptions : { ...o.sdkOptions, resumeSessionAt: resumeAt };
    const mine = (): ConversationKey => {
      const key = owner.key();
      // A spare runs nothing before it is taken: no tool call, no hook, no event to route.
      if (key === undefined) throw new Error("a spare session has no conversation yet");
      return key;
    };
    const session: ClaudeSession = new ClaudeSession({
      cwd,
      ...(config.claude.model !== undefined && { model: config.claude.model }),
      permissionMode: config.claude.permissionMode,
      ...(config.claude.allowedTools && { allowedTools: config.claude.allowedTools }),
      ...(config.claude.disallowedTools && { disallowedTools: config.claude.disallowedTools }),
      settingSources: config.claude.settingSources,
      ...(config.claude.maxTurns !== undefined && { maxTurns: config.claude.maxTurns }),
      ...(resume !== undefined && { resume }),
      ...(o.claudeEnv && { env: o.claudeEnv }),
      ...o.passthrough,
      ...(sdkOptions && { sdkOptions }),
      ...(o.queryFactory && { queryFactory: o.queryFactory }),
      logger: o.logger.child(
        known === undefined
          ? { spare: true }
          : conversation
            ? { contextId: conversation.contextId, owner: conversation.owner }
            : { conversation: known },
      ),
      canUseTool: (toolName, input, options) =>
        o.executor().canUseTool(mine(), toolName, input, options),
      hooks: {
        PostToolUse: [
          {
            matcher: FILE_TOOL_MATCHER,
            hooks: [
              async (input, _toolUseId, { signal }) => {
                if (input.hook_event_name !== "PostToolUse") return {};
                const path = changedFilePath(input.tool_name, input.tool_input);
                if (path === undefined) return {};
                // The change belongs to the run that made the tool call, whoever holds the context.
                const runId = await session.runOfToolUse(input.tool_use_id, signal);
                await o.executor().onFileChanged(mine(), runId, {
                  cwd,
                  path,
                  toolName: input.tool_name,
                  operation: fileOperation(input.tool_name, input.tool_response),
                  maxBytes: config.artifacts.maxFileBytes,
                });
                return {};
              },
            ],
          },
        ],
      },
    });
    // Background work and wakes: the executor gives them to the task that owns them.
    session.subscribe((event) => {
      const key = owner.key();
      if (key !== undefined) o.executor().onSessionEvent(key, session, event);
    });
    return session;
  };
  return {
    createSession: ({ key, resume, resumeAt }) =>
      build({ key: () => key }, o.cwdOf(key), resume, resumeAt),
    createSpare: (cwd) => {
      let bound: ConversationKey | undefined;
      const session = build({ key: () => bound }, cwd);
      return {
        session,
        bind: (key) => {
          bound = key;
        },
      };
    },
  };
}
