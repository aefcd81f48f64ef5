import type { Config } from "../config/schema.js";
import { checkEnvironment, type CheckSandbox } from "../delivery/check-command.js";
import { runCheck } from "../delivery/check-runner.js";
import { checkFences } from "./check-fences.js";
import type { DeliveryMetrics } from "../metrics/delivery-metrics.js";
import { deniedVariables } from "../sandbox/boundary.js";
import type { WorkspaceSandbox } from "../sandbox/workspace-sandbox.js";
import type { DeliveryRunner } from "../delivery/runner.js";
import type { DeliveryTarget } from "../contract/delivery.js";
import type { TargetStep } from "../delivery/target-step.js";
import { checkedOutBranch } from "../delivery/target/base-branch.js";
import { pushStep } from "../delivery/target/push-step.js";
import { pullRequestStep } from "../delivery/target/pull-request-step.js";
import { mergeStep } from "../delivery/merge/merge-step.js";

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
  /** The server's own environment: the remote's and the forge's tokens are read from it. */
  serverEnv: Readonly<Record<string, string | undefined>> = process.env,
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
    targetStep: targetSteps(config, serverEnv),
    checked: (run) => metrics.checked(run.result),
    ended: (outcome, rounds) => metrics.ended(outcome, rounds),
  };
}

/**
 * The steps after the commit, by target (docs/delivery.md): `push` and `pull-request` with the
 * server's tokens, read from its own environment (never Claude's), and `merge`, which asks first.
 * The base branch is read now, at startup, unless the config names it.
 */
function targetSteps(
  config: Config,
  serverEnv: Readonly<Record<string, string | undefined>>,
): (target: Exclude<DeliveryTarget, "branch">) => TargetStep | undefined {
  const delivery = config.claude.delivery;
  const cwd = config.claude.cwd;
  const remote = delivery?.remote;
  const forge = delivery?.forge;
  const wantsBase =
    delivery?.allowedTargets.includes("pull-request") === true ||
    delivery?.allowedTargets.includes("merge") === true;
  const base =
    delivery?.baseBranch !== undefined
      ? Promise.resolve(delivery.baseBranch)
      : wantsBase
        ? checkedOutBranch(cwd)
        : Promise.resolve(undefined);
  return (target) => {
    switch (target) {
      case "push":
        return remote && pushStep({ remote, env: serverEnv });
      case "pull-request":
        return (
          remote &&
          forge &&
          pullRequestStep({ remote, forge, env: serverEnv, baseBranch: () => base })
        );
      case "merge":
        return delivery === undefined
          ? undefined
          : mergeStep({
              workspace: cwd,
              baseBranch: () => base,
              how: delivery.merge.how,
              author: delivery.merge.author,
              approvedBy: delivery.approvedBy,
            });
    }
  };
}
