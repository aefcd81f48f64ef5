import { DEFAULT_API_URL, type ForgeConfig } from "../config/forge-schema.js";
import type { Forge } from "./forge.js";
import { GitHubForge } from "./github.js";
import { GitLabForge } from "./gitlab.js";
import type { FetchLike } from "./http.js";

/**
 * The forge a config names, with its token read from the environment now; or why not (the
 * variable unset or empty), in a sentence naming the variable, never its value.
 */
export function openForge(
  config: ForgeConfig,
  env: Readonly<Record<string, string | undefined>>,
  fetchImpl?: FetchLike,
): { ok: true; forge: Forge } | { ok: false; reason: string } {
  const token = env[config.tokenEnv];
  if (!token) {
    return {
      ok: false,
      reason: `the environment variable ${config.tokenEnv} (tokenEnv) is not set`,
    };
  }
  const o = {
    baseUrl: config.baseUrl ?? DEFAULT_API_URL[config.kind],
    repository: config.repository,
    token,
    tokenEnv: config.tokenEnv,
    ...(fetchImpl && { fetch: fetchImpl }),
  };
  switch (config.kind) {
    case "github":
      return { ok: true, forge: new GitHubForge(o) };
    case "gitlab":
      return { ok: true, forge: new GitLabForge(o) };
  }
}
