import { resolve } from "node:path";
import type { ClaudeSessionOptions } from "../claude/index.js";
import type { Config } from "../config/schema.js";

type ClaudeConfig = Config["claude"];
type ChildEnv = Record<string, string | undefined>;

/** What the config passes through to every Claude Code session of a workspace. */
export type PassthroughOptions = Pick<
  ClaudeSessionOptions,
  | "effort"
  | "fallbackModel"
  | "systemPrompt"
  | "mcpServers"
  | "agents"
  | "additionalDirectories"
  | "env"
>;

/**
 * The session options `claude.effort`, `fallbackModel`, `systemPrompt`, `mcpServers`, `agents`,
 * `additionalDirectories` and `env` stand for, each only when set. `childEnv` is the child's
 * environment before `claude.env` (undefined: it inherits the server's); the SDK replaces the
 * environment rather than merging it, so `claude.env` is added to a whole copy. Pure.
 */
export function passthroughOptions(
  claude: ClaudeConfig,
  childEnv: ChildEnv | undefined,
  processEnv: ChildEnv = process.env,
): PassthroughOptions {
  return {
    ...(claude.effort !== undefined && { effort: claude.effort }),
    ...(claude.fallbackModel !== undefined && { fallbackModel: claude.fallbackModel }),
    // The server runs Claude Code with the Agent SDK's own short prompt (no `systemPrompt`), to
    // which a custom prompt is added after its first line: appending is giving that text.
    ...(claude.systemPrompt !== undefined && { systemPrompt: claude.systemPrompt.append }),
    ...(claude.mcpServers !== undefined && { mcpServers: claude.mcpServers }),
    ...(claude.agents !== undefined && { agents: claude.agents }),
    ...(claude.additionalDirectories !== undefined && {
      // Against the workspace, not the session's cwd (which may be a worktree of it).
      additionalDirectories: claude.additionalDirectories.map((d) => resolve(claude.cwd, d)),
    }),
    ...(claude.env !== undefined && { env: { ...(childEnv ?? processEnv), ...claude.env } }),
  };
}

/**
 * What the log says of the passed-through options: names and counts, never a value of `env`,
 * of an MCP server's `env` or `headers`, or the appended prompt's text.
 */
export function describePassthrough(claude: ClaudeConfig): Record<string, unknown> | undefined {
  const summary = {
    ...(claude.effort !== undefined && { effort: claude.effort }),
    ...(claude.fallbackModel !== undefined && { fallbackModel: claude.fallbackModel }),
    ...(claude.systemPrompt !== undefined && {
      systemPromptAppendChars: claude.systemPrompt.append.length,
    }),
    ...(claude.mcpServers !== undefined && { mcpServers: Object.keys(claude.mcpServers) }),
    ...(claude.agents !== undefined && { agents: Object.keys(claude.agents) }),
    ...(claude.additionalDirectories !== undefined && {
      additionalDirectories: claude.additionalDirectories,
    }),
    ...(claude.env !== undefined && { envNames: Object.keys(claude.env) }),
    ...(claude.allowedModels.length > 0 && { allowedModels: claude.allowedModels }),
    ...(claude.allowedEfforts.length > 0 && { allowedEfforts: claude.allowedEfforts }),
  };
  return Object.keys(summary).length === 0 ? undefined : summary;
}
