import { describe, expect, it } from "vitest";
import { WORKTREE_SETUP } from "../../../../src/workspace/worktrees/manager.js";
import { EXCLUDE_MARKER } from "../../../../src/workspace/worktrees/names.js";
import { configSchema } from "../../../../src/config/schema.js";
import { docPage } from "../../../support/docs/pages.js";

const WORKSPACES = docPage("workspaces.md");
const CONFIGURATION = docPage("configuration.md");

describe("the docs' Isolation section and configuration reference", () => {
  it.each(Object.entries(WORKTREE_SETUP))("quotes the %s startup error", (_name, message) => {
    expect(WORKSPACES).toContain(`\`${message("<cwd>")}\``);
  });

  it("names the exclude file's marker line", () => {
    expect(WORKSPACES).toContain(`\`${EXCLUDE_MARKER}\``);
  });

  it("documents the defaults the schema has", () => {
    const { claude } = configSchema.parse({});
    expect(claude.isolation).toBe("shared");
    expect(CONFIGURATION).toMatch(/\| `claude\.isolation` +\| `"shared"` /);
    expect(CONFIGURATION).toMatch(
      new RegExp(`\\| \`claude\\.worktreeDir\` +\\| \`"${claude.worktreeDir}"\` `),
    );
  });
});
