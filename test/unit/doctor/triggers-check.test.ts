import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { checkTriggers } from "../../../src/doctor/triggers-check.js";

const resolve = (raw: unknown) => resolveConfig(raw, { file: "t.json", startDir: "/work" });
const webhook = {
  kind: "webhook",
  verify: "gitlab",
  secretEnv: "LAB_SECRET",
  prompt: "{{object_attributes.title}}",
};

describe("checkTriggers (--check)", () => {
  it("says nothing for a workspace without triggers", () => {
    expect(checkTriggers(resolve({}), {})).toBeUndefined();
  });

  it("lists each trigger's path when it can start", () => {
    const config = resolve({ triggers: { lab: webhook }, claude: { sandbox: "strict" } });
    expect(checkTriggers(config, { LAB_SECRET: "x" })).toEqual({
      name: "triggers",
      ok: true,
      detail: "lab (gitlab webhook at POST /hooks/lab)",
    });
    expect(checkTriggers(config, { LAB_SECRET: "x" }, "api")?.detail).toBe(
      "lab (gitlab webhook at POST /agents/api/hooks/lab)",
    );
  });

  it("fails on what would stop startup, never showing a secret", () => {
    const config = resolve({ triggers: { lab: webhook } });
    const result = checkTriggers(config, {});
    expect(result?.ok).toBe(false);
    expect(result?.detail).toContain("LAB_SECRET (secretEnv) is not set");
    expect(result?.detail).toContain("claude.sandbox is off");
  });
});
