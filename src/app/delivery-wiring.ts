import type { Config } from "../config/schema.js";
import { checkEnvironment, type CheckSandbox } from "../delivery/check-command.js";
import { runCheck } from "../delivery/check-runner.js";
import type { DeliveryMetrics } from "../metrics/delivery-metrics.js";
import { deniedVariables } from "../sandbox/boundary.js";
import type { WorkspaceSandbox } from "../sandbox/workspace-sandbox.js";
import type { DeliveryRunner } from "../delivery/runner.js";
import type { TargetStep } from "../delivery/target-step.js";
import type { DeliveryTarget } from "../contract/delivery.js";
import { checkedOutBranch } from "../delivery/merge/merge-git.js";
import { mergeStep } from "../delivery/merge/merge-step.js";

/**
 * How a workspace runs its deliveries' checks (`claude.delivery`, docs/delivery.md): with the
 * environment Claude's Bash gets (never the server's secrets nor the model's keys), and under
 * bubblewrap when the workspace's sandbox is on with it. Undefined without `claude.delivery`.
 */
export function deliveryRunner(
  config: Config,
  sandbox: Pick<WorkspaceSandbox, "settings" | "mechanism">,
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
  return {
    run: (check, round, cwd, signal) =>
      runCheck(check, round, { cwd, env, sandbox: bwrap, signal }),
    targetStep: targetSteps(config),
    checked: (run) => metrics.checked(run.result),
    ended: (outcome, rounds) => metrics.ended(outcome, rounds),
  };
}

/** The steps after the commit this server has, by target (push and pull request: not yet). */
function targetSteps(
  config: Config,
): (target: Exclude<DeliveryTarget, "branch">) => TargetStep | undefined {
  const delivery = config.claude.delivery;
  const cwd = config.claude.cwd;
  // The branch the workspace is on now, at startup, unless the config names one.
  const startupBranch =
    delivery?.baseBranch === undefined
      ? checkedOutBranch(cwd).catch(() => undefined)
      : Promise.resolve(delivery.baseBranch);
  return (target) => {
    switch (target) {
      case "merge":
        return delivery === undefined
          ? undefined
          : mergeStep({
              workspace: cwd,
              baseBranch: () => startupBranch,
              how: delivery.merge.how,
              author: delivery.merge.author,
              approvedBy: delivery.approvedBy,
            });
      case "push":
      case "pull-request":
        return undefined;
    }
  };
}
