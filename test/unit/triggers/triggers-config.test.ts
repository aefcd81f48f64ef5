import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../../src/config/load.js";
import { workspaceConfig } from "../../../src/config/workspaces.js";
import { triggerProblems, triggerPrompts } from "../../../src/triggers/policy.js";

const FILE = "/work/.claude/claude-a2a.config.json";
const resolve = (raw: unknown) => resolveConfig(raw, { file: FILE, startDir: "/work" });

const webhook = {
  kind: "webhook",
  verify: "github",
  secretEnv: "GH_SECRET",
  prompt: "Fix #{{issue.number}}",
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("triggers in the config", () => {
  it("fills each trigger's defaults", () => {
    const config = resolve({ triggers: { fix: webhook } });
    expect(config.triggers.fix).toMatchObject({
      conversation: "new",
      permissions: "deny",
      allowUnsandboxed: false,
      maxBodyBytes: 1024 * 1024,
      maxFieldChars: 4000,
      toleranceSeconds: 300,
    });
  });

  it.each([
    [{ Fix: webhook }, "triggers.Fix", "expected a trigger name"],
    [{ fix: { ...webhook, verify: "bitbucket" } }, "triggers.fix.verify", '"github", "gitlab"'],
    [{ fix: { ...webhook, secretEnv: "not a name" } }, "triggers.fix.secretEnv", "variable name"],
    [{ fix: { ...webhook, prompt: "Fix {{issue.title" } }, "triggers.fix.prompt", "not a variable"],
    [{ fix: { ...webhook, permissions: "allow" } }, "triggers.fix.permissions", '"deny"'],
    [{ fix: { ...webhook, kind: "cron" } }, "triggers.fix", '"webhook"'],
  ])("refuses %j with a line naming the key", (triggers, key, expected) => {
    const message = messageOf(() => resolve({ triggers }));
    expect(message).toContain(key);
    expect(message).toContain(expected);
  });

  it("refuses top-level triggers beside workspaces, naming where they go", () => {
    const message = messageOf(() =>
      resolve({ triggers: { fix: webhook }, workspaces: { api: { cwd: "api" } } }),
    );
    expect(message).toContain("workspaces.<name>.triggers");
  });

  it("gives a trigger's limits to its caller, first among limits.callers", () => {
    const config = resolve({
      triggers: { fix: { ...webhook, limits: { dailyBudgetUsd: 2 } } },
      limits: { callers: [{ match: "*", dailyBudgetUsd: 10 }] },
    });
    expect(config.limits.callers[0]).toEqual({ match: "trigger:fix", dailyBudgetUsd: 2 });
    expect(config.limits.callers[1]).toMatchObject({ match: "*" });
  });

  it("gives a workspace its own triggers and their limits", () => {
    const base = resolve({
      workspaces: {
        api: { cwd: "api", triggers: { fix: { ...webhook, limits: { concurrentTasks: 1 } } } },
        web: { cwd: "web" },
      },
    });
    const [api, web] = base.workspaces;
    const apiConfig = workspaceConfig(base, api!, true);
    expect(Object.keys(apiConfig.triggers)).toEqual(["fix"]);
    expect(apiConfig.limits.callers[0]).toEqual({ match: "trigger:fix", concurrentTasks: 1 });
    expect(workspaceConfig(base, web!, false).triggers).toEqual({});
  });
});

describe("triggerProblems", () => {
  const env = { GH_SECRET: "x" };
  it("is empty for a sandboxed workspace with its secret set", () => {
    const config = resolve({ triggers: { fix: webhook }, claude: { sandbox: "strict" } });
    expect(triggerProblems(config, env, undefined)).toEqual([]);
  });

  it("names an unset secret variable, never a value", () => {
    const config = resolve({ triggers: { fix: webhook }, claude: { sandbox: "strict" } });
    expect(triggerProblems(config, {}, undefined)).toEqual([
      "triggers.fix: the environment variable GH_SECRET (secretEnv) is not set.",
    ]);
    expect(triggerProblems(config, { GH_SECRET: "" }, "api")[0]).toContain(
      "workspaces.api.triggers.fix",
    );
  });

  it("refuses a webhook without the sandbox unless allowUnsandboxed", () => {
    const off = resolve({ triggers: { fix: webhook } });
    expect(triggerProblems(off, env, undefined)[0]).toContain("claude.sandbox is off");
    const allowed = resolve({ triggers: { fix: { ...webhook, allowUnsandboxed: true } } });
    expect(triggerProblems(allowed, env, undefined)).toEqual([]);
  });

  it("refuses triggers when idempotent sends are off", () => {
    const config = resolve({
      triggers: { fix: { ...webhook, allowUnsandboxed: true } },
      replay: { enabled: false },
    });
    expect(triggerProblems(config, env, undefined)[0]).toContain("replay.enabled is false");
  });
});

describe("triggerPrompts", () => {
  it("denies unless the trigger says operator; an unknown trigger denies", () => {
    const config = resolve({
      triggers: { fix: webhook, ask: { ...webhook, permissions: "operator" } },
    });
    const prompts = triggerPrompts(config.triggers);
    expect(prompts("fix")).toBe("deny");
    expect(prompts("ask")).toBe("input-required");
    expect(prompts("gone")).toBe("deny");
    expect(prompts("constructor")).toBe("deny");
  });
});
