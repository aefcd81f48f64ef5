import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readProjectEntries } from "../../../../src/a2a/card/project-skills.js";

let root = "";
let cwd = "";
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "a2a-skills-"));
  cwd = join(root, "workspace");
  await mkdir(join(cwd, ".claude", "commands"), { recursive: true });
  await mkdir(join(cwd, ".claude", "agents"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const put = (path: string, text: string) => writeFile(join(cwd, ".claude", path), text);

describe("project slash commands and subagents", () => {
  it("lists names and frontmatter descriptions only, sorted, never a prompt body", async () => {
    await put(
      "commands/test.md",
      "---\ndescription: Run the tests\n---\nRun npm test with SECRET=abc",
    );
    await put("commands/deploy.md", "Deploy with the token hunter2 (no frontmatter)");
    await put("commands/notes.txt", "not a command");
    await put(
      "agents/rev.md",
      "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read\n---\nbody",
    );
    await put("agents/plain.md", "---\ndescription: Named by its file\n---\n");
    expect(await readProjectEntries(cwd, "commands")).toEqual([
      { name: "deploy", description: undefined },
      { name: "test", description: "Run the tests" },
    ]);
    expect(await readProjectEntries(cwd, "agents")).toEqual([
      { name: "plain", description: "Named by its file" },
      { name: "reviewer", description: "Reviews diffs" },
    ]);
  });

  it("skips what resolves outside the workspace, odd names, FIFOs, and clips long descriptions", async () => {
    const outside = join(root, "outside.md");
    await writeFile(outside, "---\ndescription: /etc/shadow says hello\n---\n");
    await symlink(outside, join(cwd, ".claude", "commands", "leak.md"));
    await put("commands/bad name.md", "---\ndescription: x\n---\n");
    await put("commands/long.md", `---\ndescription: ${"a".repeat(2000)}\n---\n`);
    execFileSync("mkfifo", [join(cwd, ".claude", "commands", "pipe.md")]);
    const entries = await readProjectEntries(cwd, "commands");
    expect(entries.map((e) => e.name)).toEqual(["long"]);
    expect(entries[0]?.description).toHaveLength(500);
    expect(JSON.stringify(entries)).not.toContain(root);
  });

  it("is empty for a workspace without the folders", async () => {
    expect(await readProjectEntries(join(root, "nowhere"), "commands")).toEqual([]);
    await rm(join(cwd, ".claude", "agents"), { recursive: true });
    expect(await readProjectEntries(cwd, "agents")).toEqual([]);
  });
});
