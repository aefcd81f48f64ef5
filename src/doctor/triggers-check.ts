import type { Config } from "../config/schema.js";
import type { ScheduleTrigger } from "../config/triggers-schema.js";
import { triggerProblems } from "../triggers/policy.js";
import { nextFiring } from "../triggers/schedule/next-firing.js";
import { localTime } from "../triggers/schedule/schedule-message.js";
import type { CheckResult } from "./check-result.js";

/**
 * A workspace's triggers (docs/triggers.md): each webhook's path and each schedule's next firing,
 * or what would stop startup (an unset secret, a webhook without the sandbox, replay off);
 * undefined when it has none. Their filters, templates, cron expressions and time zones were
 * checked with the config itself.
 */
export function checkTriggers(
  config: Pick<Config, "triggers" | "claude" | "replay">,
  env: Readonly<Record<string, string | undefined>>,
  workspace?: string,
  now: Date = new Date(),
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
  const listed = Object.entries(config.triggers).map(([name, t]) =>
    t.kind === "webhook"
      ? `${name} (${t.verify} webhook at POST ${base}/hooks/${name})`
      : `${name} (${scheduleLine(t, now)})`,
  );
  return { name: "triggers", ok: true, detail: listed.join(", ") };
}

/** `schedule "0 3 * * *" in Europe/Paris, catch-up skip, next 2026-12-08 03:00:00 Europe/Paris`. */
function scheduleLine(t: ScheduleTrigger, now: Date): string {
  const timeZone = t.timeZone ?? "UTC";
  const next = nextFiring(t, now);
  const when = next === undefined ? "never fires again" : `next ${localTime(next, timeZone)}`;
  return `schedule "${t.cron}" in ${timeZone}, catch-up ${t.catchUp}, ${when}`;
}
