import type { DeliveryConfig } from "../config/delivery-schema.js";

/**
 * Why a workspace's deliveries cannot start, one sentence each, or none: a target it allows needs
 * a token (`push` and `pull-request`: the remote's; `pull-request`: the forge's too) whose variable
 * is unset or empty. Found at startup, as a trigger's are (triggers/policy.ts), not after a task
 * has done its work and its checks went green. Pure.
 */
export function deliveryTokenProblems(
  delivery: DeliveryConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  where = "claude.delivery",
): string[] {
  if (delivery === undefined) return [];
  const allowed = new Set([delivery.target, ...delivery.allowedTargets]);
  const needs = [
    { key: "remote", variable: delivery.remote?.tokenEnv, by: ["push", "pull-request"] },
    { key: "forge", variable: delivery.forge?.tokenEnv, by: ["pull-request"] },
  ] as const;
  return needs.flatMap(({ key, variable, by }) => {
    const targets = by.filter((t) => allowed.has(t));
    if (targets.length === 0 || variable === undefined || env[variable]) return [];
    return [
      `${where}.${key}.tokenEnv: the environment variable ${variable} is not set, and ` +
        `${targets.map((t) => `"${t}"`).join(" and ")} deliveries need it: set it in the ` +
        `server's environment (docs/forges.md).`,
    ];
  });
}
