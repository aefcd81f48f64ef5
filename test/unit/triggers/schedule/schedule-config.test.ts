import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../../../src/config/load.js";
import { checkTriggers } from "../../../../src/doctor/triggers-check.js";
import { triggerProblems } from "../../../../src/triggers/policy.js";

const resolve = (raw: unknown) => resolveConfig(raw, { file: "t.json", startDir: "/work" });
const schedule = { kind: "schedule", cron: "0 3 * * *", prompt: "Update the dependencies." };

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("schedules in the config", () => {
  it("fills a schedule's defaults", () => {
    expect(resolve({ triggers: { deps: schedule } }).triggers.deps).toEqual({
      ...schedule,
      catchUp: "skip",
      conversation: "new",
      permissions: "deny",
    });
  });

  it.each([
    [{ cron: "every night" }, "triggers.deps.cron", "is not a cron expression"],
    [{ cron: "61 * * * *" }, "triggers.deps.cron", "Invalid value for minute"],
    [{ cron: "0 0 1 1 * 2030" }, "triggers.deps.cron", "is not a cron expression"],
    [{ cron: "0 0 30 2 *" }, "triggers.deps.cron", "never fires"],
    [{ timeZone: "Mars/Olympus" }, "triggers.deps.timeZone", '"Mars/Olympus" is not a time zone'],
    [{ catchUp: "all" }, "triggers.deps.catchUp", 'expected "skip" or "once"'],
    [
      { prompt: "At {{issue.title}}" },
      "triggers.deps.prompt",
      "{{issue.title}} is not a schedule's variable",
    ],
    [{ prompt: "At {{schedule.time" }, "triggers.deps.prompt", "not a variable"],
    [{ conversation: "subject" }, "triggers.deps.conversation", 'expected "new" or "same"'],
    [{ allowUnsandboxed: true }, "triggers.deps", "allowUnsandboxed"],
  ])("refuses %j with a line naming the key", (change, key, expected) => {
    const message = messageOf(() => resolve({ triggers: { deps: { ...schedule, ...change } } }));
    expect(message).toContain(key);
    expect(message).toContain(expected);
  });

  it("names every bad key at once: cron, time zone and prompt", () => {
    const message = messageOf(() =>
      resolve({
        triggers: {
          deps: { ...schedule, cron: "0 25 * * *", timeZone: "Europe/Pariss", prompt: "{{x}}" },
        },
      }),
    );
    expect(message).toContain("triggers.deps.cron");
    expect(message).toContain("triggers.deps.timeZone");
    expect(message).toContain("triggers.deps.prompt");
  });

  it("needs neither the sandbox nor idempotent sends: its prompt is the operator's", () => {
    const config = resolve({ triggers: { deps: schedule }, replay: { enabled: false } });
    expect(triggerProblems(config, {}, undefined)).toEqual([]);
  });

  it("needs its push token's variable, as a webhook does", () => {
    const config = resolve({
      triggers: {
        deps: { ...schedule, push: { url: "https://hooks.example/a2a", tokenEnv: "PUSH_TOKEN" } },
      },
    });
    expect(triggerProblems(config, {}, undefined)).toEqual([
      "triggers.deps: the environment variable PUSH_TOKEN (push.tokenEnv) is not set.",
    ]);
  });

  it("--check prints each schedule's next firing in its time zone", () => {
    const config = resolve({
      triggers: { deps: { ...schedule, timeZone: "Europe/Paris", catchUp: "once" } },
    });
    expect(checkTriggers(config, {}, undefined, new Date("2026-07-01T12:00:00Z"))).toEqual({
      name: "triggers",
      ok: true,
      detail:
        'deps (schedule "0 3 * * *" in Europe/Paris, catch-up once, next 2026-07-02 03:00:00 Europe/Paris)',
    });
  });
});
