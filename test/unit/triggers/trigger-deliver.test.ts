import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../../src/config/load.js";
import type { ScheduleTrigger } from "../../../src/config/triggers-schema.js";
import { deliverMetadata } from "../../../src/triggers/fire.js";
import { triggerProblems } from "../../../src/triggers/policy.js";
import { scheduleMessage } from "../../../src/triggers/schedule/schedule-message.js";

/** A trigger's `deliver` (docs/triggers.md, docs/delivery.md): checked at startup, sent as metadata. */

const FILE = "/work/.claude/claude-a2a.config.json";
const resolve = (raw: unknown) => resolveConfig(raw, { file: FILE, startDir: "/work" });

const nightly = (deliver: unknown) => ({
  kind: "schedule",
  cron: "0 3 * * *",
  prompt: "Update the dependencies",
  deliver,
});
const delivery = {
  checks: [
    { name: "test", command: "npm test" },
    { name: "lint", command: "npm run lint" },
  ],
  allowedTargets: ["branch", "merge"],
};
const worktree = (deliver: unknown, claude: Record<string, unknown> = {}) =>
  resolve({
    triggers: { nightly: nightly(deliver) },
    claude: { isolation: "worktree", delivery, ...claude },
  });

describe("a trigger's deliver", () => {
  it("is taken in every shape metadata.deliver takes, in a worktree workspace with a delivery", () => {
    for (const deliver of [true, "branch", { target: "branch", checks: ["test"], maxRounds: 1 }]) {
      expect(triggerProblems(worktree(deliver), {}, undefined)).toEqual([]);
    }
  });

  it.each([
    [
      "without worktree isolation",
      resolve({ triggers: { nightly: nightly({ checks: ["test"] }) }, claude: { delivery } }),
      'A delivery needs claude.isolation "worktree"',
    ],
    [
      "without claude.delivery",
      resolve({ triggers: { nightly: nightly(true) }, claude: { isolation: "worktree" } }),
      "This workspace has no claude.delivery",
    ],
    [
      "naming a check the workspace lacks",
      worktree({ checks: ["deploy"] }),
      'Unknown check "deploy"',
    ],
    ["with a target not allowed", worktree("push"), "Delivery target push is not allowed"],
    ["with more rounds than allowed", worktree({ maxRounds: 9 }), "maxRounds"],
  ])("stops startup %s, naming the trigger", (_, config, reason) => {
    const [problem, ...rest] = triggerProblems(config, {}, "api");
    expect(rest).toEqual([]);
    expect(problem).toContain("workspaces.api.triggers.nightly.deliver: ");
    expect(problem).toContain(reason);
  });

  it.each([
    [{ command: "rm -rf /" }, "triggers.nightly.deliver"],
    ["somewhere", "triggers.nightly.deliver"],
    [{ checks: "test" }, "triggers.nightly.deliver"],
  ])("refuses %j in the config, a command above all", (deliver, key) => {
    let message = "";
    try {
      resolve({ triggers: { nightly: nightly(deliver) } });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain(key);
  });

  it("goes into the firing's metadata as metadata.deliver, and nothing when unset", () => {
    const config = worktree({ target: "branch", checks: ["test"] });
    const trigger = config.triggers.nightly as ScheduleTrigger;
    const message = scheduleMessage({
      name: "nightly",
      trigger,
      time: new Date(Date.UTC(2026, 0, 1, 3)),
      way: "manual",
      key: "nightly:1",
    });
    expect(message.metadata).toMatchObject({
      origin: "trigger",
      deliver: { target: "branch", checks: ["test"] },
    });
    expect(deliverMetadata(undefined)).toEqual({});
  });
});
