import type { Config } from "../config/schema.js";
import type { TriggersConfig } from "../config/triggers-schema.js";
import { CONTROL_EXTENSION_URI } from "../contract/control.js";
import { DELIVER_KEY } from "../contract/delivery.js";
import { requestedDelivery } from "../delivery/decision.js";
import { sandboxName } from "../sandbox/preset.js";

/** A trigger's policy as the rest of the server reads it (docs/triggers.md "Policy"). Pure. */

/** What a permission prompt of a trigger's task gets: "deny" unless it says "operator". */
export function triggerPrompts(
  triggers: TriggersConfig,
): (trigger: string) => "input-required" | "deny" {
  return (trigger) =>
    Object.hasOwn(triggers, trigger) && triggers[trigger]?.permissions === "operator"
      ? "input-required"
      : "deny";
}

/**
 * Why this workspace's triggers cannot start, one sentence each naming the trigger, or none: its
 * secret's (or push token's) variable unset or empty, a webhook without the sandbox (and no allowUnsandboxed),
 * idempotent sends off with a webhook (a retried delivery would start a second task), a `deliver`
 * the workspace refuses (no worktree isolation, no `claude.delivery`, a target or check it does
 * not allow). Pure.
 */
export function triggerProblems(
  config: Pick<Config, "triggers" | "claude" | "replay">,
  env: Readonly<Record<string, string | undefined>>,
  workspace: string | undefined,
): string[] {
  const where = workspace === undefined ? "triggers" : `workspaces.${workspace}.triggers`;
  return Object.entries(config.triggers).flatMap(([name, t]) => {
    const problems: string[] = [];
    const at = `${where}.${name}`;
    if (t.kind === "webhook" && !env[t.secretEnv]) {
      problems.push(`${at}: the environment variable ${t.secretEnv} (secretEnv) is not set.`);
    }
    if (t.deliver !== undefined) {
      // The same decision as a caller's metadata.deliver, with the extension on (a firing
      // activates it): a refusal a task would get at admission stops startup instead.
      const policy = { isolation: config.claude.isolation, config: config.claude.delivery };
      const asked = requestedDelivery(
        { [DELIVER_KEY]: t.deliver },
        policy,
        true,
        CONTROL_EXTENSION_URI,
      );
      if (!asked.ok) problems.push(`${at}.deliver: ${asked.reason}`);
    }
    const tokenEnv = t.push?.tokenEnv;
    if (tokenEnv !== undefined && !env[tokenEnv]) {
      problems.push(`${at}: the environment variable ${tokenEnv} (push.tokenEnv) is not set.`);
    }
    // A schedule's prompt is the operator's own text, and its firing row keeps it to one task:
    // neither the sandbox nor idempotent sends are its conditions (docs/triggers.md "Schedules").
    if (t.kind === "schedule") return problems;
    const forgeEnv = t.result?.comment === true ? t.result.forge.tokenEnv : undefined;
    if (forgeEnv !== undefined && !env[forgeEnv]) {
      problems.push(
        `${at}: the environment variable ${forgeEnv} (result.forge.tokenEnv) is not set.`,
      );
    }
    if (sandboxName(config.claude.sandbox) === "off" && !t.allowUnsandboxed) {
      problems.push(
        `${at}: a webhook's payload is written by strangers, and claude.sandbox is off: set ` +
          `claude.sandbox to "strict" (docs/sandbox.md), or allowUnsandboxed: true.`,
      );
    }
    if (!config.replay.enabled) {
      problems.push(
        `${at}: replay.enabled is false, so a retried delivery would start a second task: ` +
          "turn it back on.",
      );
    }
    return problems;
  });
}
