import type { Config } from "../config/schema.js";
import { triggerProblems } from "../triggers/policy.js";
import type { CheckResult } from "./check-result.js";

/**
 * A workspace's triggers (docs/triggers.md): each one's path, or what would stop startup (an
 * unset secret, a webhook without the sandbox, replay off); undefined when it has none. Their
 * filters and templates were checked with the config itself.
 */
export function checkTriggers(
  config: Pick<Config, "triggers" | "claude" | "replay">,
  env: Readonly<Record<string, string | undefined>>,
  workspace?: string,
): CheckResult | undefined {
  const names = Object.keys(config.triggers);
  if (names.length === 0) return undefined;
  const problems = triggerProblems(config, env, workspace);
  if (problems.length > 0) {
    return {
      name: "triggers",
      ok: false,
      detail: problems.join(" "),
      fix: "set the variables in the server's environment, or see docs/triggers.md",
    };
  }
  const base = workspace === undefined ? "" : `/agents/${workspace}`;
  const listed = Object.entries(config.triggers).map(
    ([name, t]) => `${name} (${t.verify} webhook at POST ${base}/hooks/${name})`,
  );
  return { name: "triggers", ok: true, detail: listed.join(", ") };
}
