import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getSessionMessages } from "@anthropic-ai/claude-agent-sdk";
import { transcriptDirStore } from "../../../src/claude/history.js";
import { projectKeyOf, transcriptChecks } from "../../../src/claude/transcripts.js";

/** The runtime's project folder of a working directory (short paths: no hash). */
const slug = (cwd: string) => cwd.replace(/[^a-zA-Z0-9]/g, "-");
const ID = "5f0c6a52-9a1b-4c3d-8e7f-0a1b2c3d4e5f";
const OTHER = "6a1d7b63-0b2c-4d4e-9f80-1b2c3d4e5f60";

let root: string;
let configDir: string;
let cwd: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "transcript-checks-")));
  configDir = join(root, "config");
  cwd = join(root, "work");
  await mkdir(cwd);
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function writeTranscript(folder: string, id: string): Promise<void> {
  await mkdir(join(configDir, "projects", slug(folder)), { recursive: true });
  const line = {
    type: "user",
    uuid: "u1",
    sessionId: id,
    message: { role: "user", content: "hi" },
  };
  await writeFile(
    join(configDir, "projects", slug(folder), `${id}.jsonl`),
    `${JSON.stringify(line)}\n`,
  );
}

describe("transcriptChecks", () => {
  it("finds a transcript where the SDK's own reader does, and nothing else", async () => {
    await writeTranscript(cwd, ID);
    const check = transcriptChecks({ CLAUDE_CONFIG_DIR: configDir })(cwd);
    expect(await check(ID)).toBe(true);
    expect(await check(OTHER)).toBe(false);
    expect(await check("not-a-uuid")).toBe(false);
    expect(await check(`../${ID}`)).toBe(false);
    // The SDK's own reader, from the same folder and config dir, finds that very file.
    const read = await getSessionMessages(ID, {
      dir: cwd,
      sessionStore: transcriptDirStore(configDir),
    });
    expect(read.length).toBeGreaterThan(0);
  });

  it("asks the SDK once per folder, however many checks of it start together", async () => {
    await writeTranscript(cwd, ID);
    let asked = 0;
    const counted = (folder: string) => {
      asked++;
      return projectKeyOf(folder);
    };
    const checks = transcriptChecks({ CLAUDE_CONFIG_DIR: configDir }, counted);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => checks(cwd)(i % 2 === 0 ? ID : OTHER)),
    );
    expect(answers.filter(Boolean)).toHaveLength(25);
    expect(await checks(cwd)(ID)).toBe(true);
    expect(asked).toBe(1);
  });

  it("a folder that does not exist yet is not kept: once made, its transcripts are found", async () => {
    const later = join(root, "later");
    const checks = transcriptChecks({ CLAUDE_CONFIG_DIR: configDir });
    expect(await checks(later)(ID)).toBe(false);
    await mkdir(later);
    await writeTranscript(later, ID);
    expect(await checks(later)(ID)).toBe(true);
  });

  it("follows a symlinked folder to its real path, as the SDK does", async () => {
    const link = join(root, "link");
    await symlink(cwd, link);
    await writeTranscript(cwd, ID);
    const checks = transcriptChecks({ CLAUDE_CONFIG_DIR: configDir });
    expect(await checks(link)(ID)).toBe(true);
  });

  it("without a config dir or HOME, finds nothing", async () => {
    await writeTranscript(cwd, ID);
    expect(await transcriptChecks({})(cwd)(ID)).toBe(false);
  });
});
