import type {
  AgentDefinition,
  EffortLevel,
  McpServerConfig,
  Options,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { httpUrl, name, names, positiveInt, text } from "./schema-parts.js";

/**
 * The `claude` keys that choose a task's model and effort, and the Claude Code options passed
 * through to the runtime as they are. Spread into `claudeSchema`; a workspace's `claude`
 * overrides reuse the same shape. Each output type is checked against the Agent SDK's own below.
 */
export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

// Fail to compile when the Agent SDK's types move, so the schema cannot silently drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<A, B> = [A] extends [B] ? true : false;
const _effortsMatchSdk: Same<(typeof EFFORT_LEVELS)[number], EffortLevel> = true;

const effort = () =>
  z.enum(EFFORT_LEVELS, { error: `expected one of ${EFFORT_LEVELS.join(", ")}` });

/**
 * An environment value. Numbers and booleans are taken as their text, so no value a config holds
 * (a secret among them) is ever quoted back in an error: only an object, array or null fails.
 */
const envValue = z
  .union([z.string(), z.number(), z.boolean()], { error: "expected a string" })
  .transform(String);
const envMap = () =>
  z.record(name(), envValue, { error: "expected an object of variable names to strings" });

const mcpStdio = z.strictObject({
  type: z.literal("stdio").optional(),
  command: name(),
  args: z.array(text(), { error: "expected an array of strings" }).optional(),
  env: envMap().optional(),
  timeout: positiveInt().optional(),
  alwaysLoad: z.boolean().optional(),
});
const mcpRemote = <T extends "http" | "sse">(type: T) =>
  z.strictObject({
    type: z.literal(type),
    url: httpUrl(),
    headers: envMap().optional(),
    timeout: positiveInt().optional(),
    alwaysLoad: z.boolean().optional(),
  });
export const mcpServerSchema = z.union([mcpStdio, mcpRemote("http"), mcpRemote("sse")], {
  error:
    'expected an MCP server: { "command", "args"?, "env"? } (stdio) or ' +
    '{ "type": "http" | "sse", "url", "headers"? }',
});

export const agentDefinitionSchema = z.strictObject({
  description: name(),
  prompt: name(),
  tools: names().optional(),
  disallowedTools: names().optional(),
  model: name().optional(),
  skills: names().optional(),
  maxTurns: positiveInt().optional(),
  effort: effort().optional(),
  background: z.boolean().optional(),
});

const _mcpIsSdk: Assignable<z.output<typeof mcpServerSchema>, McpServerConfig> = true;
const _agentIsSdk: Assignable<z.output<typeof agentDefinitionSchema>, AgentDefinition> = true;

export const claudeOptionsShape = {
  allowedModels: names()
    .default([])
    .describe(
      "Models a message may ask for (metadata.model), besides claude.model, which may always " +
        "be asked for. Default: none, so only claude.model runs.",
    ),
  allowedEfforts: z
    .array(effort(), { error: "expected an array of effort levels" })
    .default([])
    .describe(
      "Effort levels a message may ask for (metadata.effort), besides claude.effort. " +
        "Default: none, so only claude.effort runs.",
    ),
  effort: effort()
    .optional()
    .describe(
      "Default effort level of every task: low, medium, high, xhigh or max (a model without " +
        "effort support ignores it). Default: the model's own (the runtime's).",
    ),
  fallbackModel: name()
    .optional()
    .describe(
      "Model(s), comma-separated, the runtime turns to when the model is overloaded. " +
        "Default: none.",
    ),
  systemPrompt: z
    .strictObject({
      append: name().describe("Text added at the end of the system prompt Claude Code runs with."),
    })
    .optional()
    .describe("Added to the system prompt Claude Code runs with. Default: nothing added."),
  mcpServers: z
    .record(name(), mcpServerSchema, { error: "expected an object of MCP server names" })
    .optional()
    .describe(
      "MCP servers of every session, by name: { command, args?, env? } (stdio) or " +
        '{ type: "http" or "sse", url, headers? }. Default: none.',
    ),
  agents: z
    .record(name(), agentDefinitionSchema, { error: "expected an object of subagent names" })
    .optional()
    .describe(
      "Subagent definitions ({ description, prompt, tools?, model?, ... }), by name, besides " +
        "the project's .claude/agents. Default: none.",
    ),
  additionalDirectories: names()
    .optional()
    .describe(
      "Directories besides claude.cwd (relative ones resolve against it) Claude may read and " +
        "edit, under the same permission mode. Default: none.",
    ),
  env: envMap()
    .optional()
    .describe(
      "Environment variables added to Claude Code's environment. Logged by name only; a " +
        "config error never quotes a value. Default: none.",
    ),
} as const;

const _passthrough = z.strictObject(claudeOptionsShape).omit({
  allowedModels: true,
  allowedEfforts: true,
  systemPrompt: true,
});
const _passthroughIsSdk: Assignable<z.output<typeof _passthrough>, Partial<Options>> = true;
