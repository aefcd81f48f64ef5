import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import { tokenEntries } from "../../support/harness/tokens.js";

const delivery = (approvedBy: "caller" | "operator", allowedTargets = ["branch", "merge"]) => ({
  isolation: "worktree" as const,
  delivery: { approvedBy, allowedTargets: allowedTargets as ["branch"] },
});

const load = (input: ConfigInput) =>
  resolveConfig(input, { file: "/w/.claude/claude-a2a.config.json", startDir: "/w" });

function errorOf(input: ConfigInput): string {
  try {
    load(input);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  return "";
}

describe('claude.delivery.approvedBy "operator"', () => {
  it("stops startup when server.operators names no one: no merge could be approved", () => {
    const message = errorOf({ claude: delivery("operator") });
    expect(message).toContain("claude.delivery.approvedBy");
    expect(message).toContain("server.operators names no one");
  });

  it("starts with an operator named, with the caller approving, or without merge allowed", () => {
    const tokens = tokenEntries({ ops: "ops-token-0123456789abcdef" });
    const withOps = { server: { auth: { tokens }, operators: ["ops"] } };
    expect(errorOf({ ...withOps, claude: delivery("operator") })).toBe("");
    expect(errorOf({ claude: delivery("caller") })).toBe("");
    expect(errorOf({ claude: delivery("operator", ["branch"]) })).toBe("");
  });
});
