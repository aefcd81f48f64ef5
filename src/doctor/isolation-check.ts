import type { Config } from "../config/schema.js";
import { inspect, WorktreeSetupError } from "../workspace/worktrees/manager.js";
import { resolve } from "node:path";
import { damagedRepositories } from "../workspace/worktrees/damage.js";
import type { CheckResult } from "./check-result.js";

/**
 * With `claude.isolation: "worktree"`: the workspace is in a git repository with a commit and
 * git runs (what startup needs, checked read-only). Undefined with "shared".
 */
export async function checkIsolation(config: Config): Promise<CheckResult | undefined> {
  if (config.claude.isolation !== "worktree") return undefined;
  const cwd = config.claude.cwd;
  try {
    const { top } = await inspect(cwd);
    const damaged = await damagedRepositories(cwd, resolve(cwd, config.claude.worktreeDir));
    if (damaged.length > 0) {
      return {
        name: "isolation",
        ok: false,
        detail: `damaged git repositories: ${damaged.map((d) => `${d.repository} (${d.error})`).join("; ")}`,
        fix: 'repair or remove them (docs/workspaces.md, "When a repository is damaged"); the other conversations go on',
      };
    }
    return {
      name: "isolation",
      ok: true,
      detail: `worktree and repository per conversation (workspace repository ${top})`,
    };
  } catch (err) {
    if (!(err instanceof WorktreeSetupError)) throw err;
    return {
      name: "isolation",
      ok: false,
      detail: err.message,
      fix: 'make the workspace a git repository with a commit, or set claude.isolation to "shared"',
    };
  }
}
