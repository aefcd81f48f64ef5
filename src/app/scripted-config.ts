/**
 * `claude-a2a --scripted <rules.json>`: the config a server on the scripted model runs with, and
 * what the scripted side (src/demo/scripted.ts, given to `main` by the cli) hands the server.
 */
import type { Config } from "../config/schema.js";

/** The scripted model started, and what the server's runtime needs to use it. */
export interface ScriptedRuntime {
  readonly modelUrl: string;
  /** The runtime's whole environment: no credential, the scripted model's URL, its own folders. */
  readonly env: Record<string, string>;
  /** Where the session map and pid file go instead of the served directory. */
  readonly stateDir: string;
  /** Stops the model and removes its temporary folders. */
  close(): Promise<void>;
}

/** Starts the scripted model on a rules file; throws a clear error on a bad file. */
export type StartScripted = (rulesFile: string) => Promise<ScriptedRuntime>;

/**
 * Variables of `claude.env` that would reach a real model or account, or move the runtime's
 * transcripts back among the user's own.
 */
const isModelVariable = (name: string): boolean =>
  name.startsWith("ANTHROPIC_") ||
  name.startsWith("CLAUDE_CODE_USE_") ||
  ["CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_TMPDIR"].includes(name);

/**
 * The config on the scripted model: the user's, minus whatever could send something off the
 * machine or write the project's real state. Tasks in memory (the project's store, SQLite or
 * PostgreSQL, is not opened); no settings files (their `env` or `apiKeyHelper` could name a
 * real endpoint); no MCP servers, peers or tracing export; no model variable of `claude.env`.
 * Pure.
 */
export function scriptedConfig(config: Config): Config {
  const { mcpServers: _mcp, env, ...claude } = config.claude;
  const keptEnv =
    env && Object.fromEntries(Object.entries(env).filter(([name]) => !isModelVariable(name)));
  return {
    ...config,
    store: { type: "memory" },
    claude: {
      ...claude,
      settingSources: [],
      ...(keptEnv !== undefined && { env: keptEnv }),
    },
    peers: { ...config.peers, agents: {} },
    tracing: { ...config.tracing, enabled: false },
  };
}

/** Why a config cannot be served on the scripted model, or undefined. Pure. */
export function scriptedRefusal(config: Config): string | undefined {
  return config.workspaces.length > 0
    ? "--scripted serves one directory: it cannot serve the config's workspaces (or --workspace)"
    : undefined;
}
