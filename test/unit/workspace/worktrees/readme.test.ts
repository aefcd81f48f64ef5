import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WORKTREE_SETUP } from "../../../../src/workspace/worktrees/manager.js";
import { EXCLUDE_MARKER } from "../../../../src/workspace/worktrees/names.js";
import { configSchema } from "../../../../src/config/schema.js";

const README = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");

describe("the README's Isolation section", () => {
  it.each(Object.entries(WORKTREE_SETUP))("quotes the %s startup error", (_name, message) => {
    expect(README).toContain(`\`${message("<cwd>")}\``);
  });

  it("names the exclude file's marker line", () => {
    expect(README).toContain(`\`${EXCLUDE_MARKER}\``);
  });

  it("documents the defaults the schema has", () => {
    const { claude } = configSchema.parse({});
    expect(claude.isolation).toBe("shared");
    expect(README).toMatch(/\| `claude\.isolation` +\| `"shared"` /);
    expect(README).toMatch(
      new RegExp(`\\| \`claude\\.worktreeDir\` +\\| \`"${claude.worktreeDir}"\` `),
    );
  });
});
