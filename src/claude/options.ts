import type {
  CanUseTool,
  EffortLevel,
  Options,
  PermissionMode,
  SettingSource,
} from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { HistoryLoader } from "./history.js";
import type { SessionCanUseTool } from "./permissions.js";
import type { UsageBaselineLoader } from "./usage-baseline.js";
import type { QueryFactory } from "./sdk.js";
import type { TurnSettings } from "./turn-settings.js";

export interface ClaudeSessionOptions {
  cwd: string;
  /** The default model; a prompt may ask for another (`stream(prompt, settings)`). */
  model?: string;
  /** The default effort level; a prompt may ask for another. Default: the runtime's. */
  effort?: EffortLevel;
  /** Defaults to "default": the runtime's own default differs between versions. */
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  /** Defaults to ["user", "project", "local"]. */
  settingSources?: SettingSource[];
  maxTurns?: number;
  /** Session id to resume: the conversation goes on and streamHistory() starts with it. */
  resume?: string;
  /** Replaces the child's environment (the SDK does not merge it). */
  env?: Record<string, string | undefined>;
  /**
   * Permission and AskUserQuestion handler, told which run made the tool call; while it is
   * pending the status is `permission`.
   */
  canUseTool?: SessionCanUseTool;
  hooks?: Options["hooks"];
  systemPrompt?: Options["systemPrompt"];
  mcpServers?: Options["mcpServers"];
  /** Subagent definitions, besides the project's `.claude/agents`. */
  agents?: Options["agents"];
  additionalDirectories?: string[];
  fallbackModel?: string;
  /** The OS sandbox of the Bash tool (`claude.sandbox`, its preset expanded). */
  sandbox?: Options["sandbox"];
  /** Any other SDK option (e.g. pathToClaudeCodeExecutable); the options above win. */
  sdkOptions?: Partial<Options>;
  logger?: Logger;
  queryFactory?: QueryFactory;
  historyLoader?: HistoryLoader;
  /** Where a resumed session's cost totals are read from (default: its transcript). */
  usageBaselineLoader?: UsageBaselineLoader;
  /** Id source for runs and sends; tests make it deterministic. */
  newId?: () => string;
}

export const DEFAULT_SETTING_SOURCES: SettingSource[] = ["user", "project", "local"];

export function buildQueryOptions(
  o: ClaudeSessionOptions,
  canUseTool: CanUseTool | undefined,
  logger: Logger,
  /** What the first prompt runs with (resolved): the process starts with it, no switch needed. */
  settings: TurnSettings = { model: o.model, effort: o.effort },
): Options {
  const options: Options = {
    stderr: (data) => logger.debug({ stderr: data.trimEnd() }, "claude code stderr"),
    ...o.sdkOptions,
    cwd: o.cwd,
    permissionMode: o.permissionMode ?? "default",
    settingSources: o.settingSources ?? DEFAULT_SETTING_SOURCES,
    // Partial frames give live text and the API message id the timeline is keyed by.
    includePartialMessages: true,
  };
  if (settings.model !== undefined) options.model = settings.model;
  if (settings.effort !== undefined) options.effort = settings.effort;
  if (o.allowedTools !== undefined) options.allowedTools = o.allowedTools;
  if (o.disallowedTools !== undefined) options.disallowedTools = o.disallowedTools;
  if (o.maxTurns !== undefined) options.maxTurns = o.maxTurns;
  if (o.resume !== undefined) options.resume = o.resume;
  if (o.env !== undefined) options.env = o.env;
  if (o.hooks !== undefined) options.hooks = o.hooks;
  if (o.systemPrompt !== undefined) options.systemPrompt = o.systemPrompt;
  if (o.mcpServers !== undefined) options.mcpServers = o.mcpServers;
  if (o.agents !== undefined) options.agents = o.agents;
  if (o.additionalDirectories !== undefined) {
    options.additionalDirectories = o.additionalDirectories;
  }
  if (o.fallbackModel !== undefined) options.fallbackModel = o.fallbackModel;
  if (o.sandbox !== undefined) options.sandbox = o.sandbox;
  if (canUseTool !== undefined) options.canUseTool = canUseTool;
  return options;
}
