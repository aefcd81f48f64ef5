import type { Config } from "../config/schema.js";
import type { MechanismProbe } from "../sandbox/mechanism.js";
import {
  exposureWarning,
  requiredProblem,
  unrunnableProblem,
  sandboxDetail,
  workspaceLabel,
} from "../sandbox/policy.js";
import { inspectSandbox } from "../sandbox/workspace-sandbox.js";
import type { CheckResult } from "./check-result.js";

/**
 * A workspace's sandbox: on or off, the mechanism found, the allowed domains; a failure when
 * `server.sandbox.required` would refuse to start it or when it is on and cannot run (the probe's
 * sandboxed command failed: every Bash command would), a warning when others may call the server
 * and it is off (what startup logs).
 */
export async function checkSandbox(
  config: Config,
  o: { workspace?: string | undefined; configFile?: string | null; probe?: MechanismProbe } = {},
): Promise<CheckResult> {
  const sandbox = await inspectSandbox(config, o.configFile, o.probe);
  const label = workspaceLabel(o.workspace, config.claude.cwd);
  const detail = sandboxDetail(
    sandbox.name,
    sandbox.settings,
    sandbox.mechanism,
    sandbox.boundary?.homeReadable,
  );
  const problem = config.server.sandbox.required
    ? requiredProblem(label, sandbox.settings, sandbox.mechanism)
    : unrunnableProblem(label, sandbox.settings, sandbox.mechanism);
  if (problem !== undefined) {
    return { name: "sandbox", ok: false, detail: problem, fix: "see docs/sandbox.md" };
  }
  const warning = exposureWarning(label, config, sandbox.settings, sandbox.mechanism);
  return { name: "sandbox", ok: true, detail, ...(warning !== undefined && { warning }) };
}
