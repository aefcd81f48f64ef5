import type { Config } from "../config/schema.js";
import { checkEnvironment, type CheckSandbox } from "../delivery/check-command.js";
import { runCheck } from "../delivery/check-runner.js";
import { checkFences } from "./check-fences.js";
import type { DeliveryMetrics } from "../metrics/delivery-metrics.js";
import { deniedVariables } from "../sandbox/boundary.js";
import type { WorkspaceSandbox } from "../sandbox/workspace-sandbox.js";
import type { DeliveryRunner } from "../delivery/runner.js";

/**
 * How a workspace runs its deliveries' checks (`claude.delivery`, docs/delivery.md): with the
 * environment Claude's Bash gets (never the server's secrets nor the model's keys), and under
 * bubblewrap when the workspace's sandbox is on with it. Undefined without `claude.delivery`.
 */
export function deliveryRunner(
  config: Config,
  sandbox: Pick<WorkspaceSandbox, "settings" | "mechanism" | "boundary">,
  metrics: DeliveryMetrics,
  /** What Claude Code's children get (the server's secrets are out of it); default: ours. */
  childEnv: Readonly<Record<string, string | undefined>> = process.env,
): DeliveryRunner | undefined {
  if (config.claude.delivery === undefined) return undefined;
  const sandboxed = sandbox.settings?.enabled === true && sandbox.mechanism.kind === "bubblewrap";
  const denied = new Set(deniedVariables(Object.keys(childEnv)));
  const env = checkEnvironment(childEnv, sandboxed ? (name) => !denied.has(name) : undefined);
  const bwrap: CheckSandbox | undefined =
    sandboxed && sandbox.mechanism.kind === "bubblewrap"
      ? {
          bwrap: sandbox.mechanism.bwrap,
          weakerNested: sandbox.settings?.enableWeakerNestedSandbox === true,
        }
      : undefined;
  const { boundary } = sandbox;
  return {
    run: async (check, round, cwd, signal) => {
      // The boundary's denials for this worktree, as they are on disk when the check starts.
      const fences =
        bwrap && boundary ? await checkFences(boundary, cwd, childEnv.HOME) : undefined;
      return runCheck(check, round, { cwd, env, sandbox: bwrap && { ...bwrap, fences }, signal });
    },
    checked: (run) => metrics.checked(run.result),
    ended: (outcome, rounds) => metrics.ended(outcome, rounds),
  };
}
