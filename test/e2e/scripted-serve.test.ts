/**
 * `claude-a2a --scripted <rules.json>` (docs/demo.md "Your own project, offline"): a plain
 * directory served on the scripted model with the documented example rules, driven by the
 * terminal client as a user would, with no credential in the environment; nothing of the
 * project's claude-a2a state is written; a bad rules file stops the server before it starts.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, type ServerProcess } from "../support/server-process.js";
import { BUILT_CLI, runClientCommand } from "../support/demo/demo-process.js";
import { freePort } from "../support/harness/ports.js";
import { tempDir, type TempDir } from "../support/harness/temp.js";

const RULES = fileURLToPath(new URL("../../docs/examples/scripted-rules.json", import.meta.url));
const OUTSIDE = "/tmp/claude-a2a-outside/report.txt";

/** The task id an input-required answer names. */
const taskOf = (output: string): string => {
  const id = /\[input-required\] task (\S+)/.exec(output)?.[1];
  if (id === undefined) throw new Error(`no input-required task in:\n${output}`);
  return id;
};

describe("--scripted <rules.json>: your own project, offline", () => {
  let dir: TempDir;
  let project: string;
  let server: ServerProcess;
  let clientEnv: NodeJS.ProcessEnv;
  const send = (...args: string[]) =>
    runClientCommand(["send", "--url", server.url, "--new", ...args], clientEnv);
  const answer = (task: string, text: string) =>
    runClientCommand(["send", "--url", server.url, "--task", task, text], clientEnv);
  const outsideBefore = existsSync(OUTSIDE);

  beforeAll(async () => {
    dir = await tempDir("claude-a2a-scripted-");
    project = join(dir.path, "project");
    await mkdir(project);
    await writeFile(join(project, "a.txt"), "a file of the project\n");
    const home = join(dir.path, "home");
    await mkdir(home);
    // No credential at all: only what a shell without a login has.
    const env = { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: dir.path };
    clientEnv = env;
    server = await spawnServer({
      cwd: project,
      port: await freePort(),
      env,
      built: true,
      args: ["--scripted", RULES],
    });
  }, 60_000);

  afterAll(async () => {
    server.kill("SIGTERM");
    await server.exited;
    await dir.close();
  }, 30_000);

  it("answers with text", async () => {
    const r = await send("Hello");
    expect(r.output).toContain("Hello! I am a scripted model");
    expect(r.output).toContain("[completed]");
  }, 60_000);

  it("asks a question, and goes on with the answer", async () => {
    const asked = await send("Paint the door");
    expect(asked.output).toContain("? [Colour] Which colour do you prefer?");
    const done = await answer(taskOf(asked.output), "blue");
    expect(done.output).toContain("Painting the door in the colour you chose.");
  }, 60_000);

  it("runs a Bash command once it is allowed", async () => {
    const asked = await send("Count the files");
    expect(asked.output).toContain("Permission: Claude wants to use Bash");
    const done = await answer(taskOf(asked.output), "yes");
    expect(done.output).toMatch(/files: \d+/);
    expect(done.output).toContain("Counted them");
  }, 60_000);

  it("writes inside the directory without asking", async () => {
    const r = await send("Write the notes");
    expect(r.output).toContain("The notes are written.");
    expect(await readFile(join(project, "notes.md"), "utf8")).toContain("scripted model");
  }, 60_000);

  it("asks before a write outside the directory; refused, nothing is written", async () => {
    const asked = await send("Save the report outside");
    expect(asked.output).toContain("reason: Path is outside allowed working directories");
    const done = await answer(taskOf(asked.output), "no");
    expect(done.output).toContain("the call was refused");
    expect(existsSync(OUTSIDE)).toBe(outsideBefore);
  }, 60_000);

  it("answers a message no rule knows by naming the rules file", async () => {
    const r = await send("Something else");
    expect(r.output).toContain("no rule of scripted-rules.json matches this message");
  }, 60_000);

  it("writes none of the project's claude-a2a state, and logs no credential warning", () => {
    // No store, session map, pid file or config digest: the state lives in a temporary folder.
    expect(existsSync(join(project, ".claude"))).toBe(false);
    expect(server.output()).toContain("serving on a scripted model");
    expect(server.output()).not.toContain("not logged in");
  });
});

describe("--scripted with a bad rules file", () => {
  const run = (cwd: string, rules: string, port: number) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const args = [BUILT_CLI, "serve", "--port", String(port), "--scripted", rules];
      const child = spawn(process.execPath, args, {
        cwd,
        env: { PATH: process.env.PATH ?? "", HOME: cwd },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.once("exit", (code) => resolve({ code, stderr }));
    });

  it("names the file and the problem, and does not start", async () => {
    const dir = await tempDir("claude-a2a-scripted-bad-");
    try {
      const bad = join(dir.path, "rules.json");
      await writeFile(bad, JSON.stringify({ rules: [{ match: { lastUserTxt: "hi" } }] }));
      const r = await run(dir.path, bad, await freePort());
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`claude-a2a: --scripted: ${bad}: not a rules file`);
      expect(r.stderr).toContain("lastUserTxt");
      const missing = await run(dir.path, join(dir.path, "none.json"), await freePort());
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("none.json: cannot read it: no such file");
      expect(existsSync(join(dir.path, ".claude"))).toBe(false);
    } finally {
      await dir.close();
    }
  }, 60_000);
});
