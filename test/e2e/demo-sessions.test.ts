/**
 * `npm run demo` reproduces every recorded session of the docs: each block marked
 * `<!-- demo-session: <name> -->` in README.md or docs/*.md is replayed, command by command,
 * with the terminal client against a fresh demo (the real Claude Code runtime on the demo's
 * scripted model), and what each command prints must be the recording, ids, hashes, ports and
 * times aside (test/support/demo/transcripts.ts).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/a2a/harness.js";
import { runClientCommand, startDemo } from "../support/demo/demo-process.js";
import {
  IdNumbering,
  liveCommand,
  normalise,
  recordedSessions,
  shellWords,
  type RecordedSession,
} from "../support/demo/transcripts.js";
import { reportPath } from "../../src/demo/rules.js";

const sessions = await recordedSessions(process.cwd());
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "claude-a2a-demo-test-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The words of a recorded `claude-a2a …` command (`npx` or not), else undefined. */
function clientWords(command: string): string[] | undefined {
  const words = shellWords(command);
  if (words[0] === "npx") words.shift();
  return words[0] === "claude-a2a" ? words.slice(1) : undefined;
}

/**
 * Files outside the workspace a session writes (the permission's report): the demo's own
 * content left by an earlier run is removed first (Claude's Write refuses to overwrite a file
 * it has not read), anything else stops the test; all are removed after the session.
 */
async function outsideFiles(session: RecordedSession): Promise<string[]> {
  const paths = session.steps.flatMap((s) =>
    s.command.includes("Save the report in") ? [reportPath(shellWords(s.command).join(" "))] : [],
  );
  for (const p of paths) {
    const content = await readFile(p, "utf8").catch(() => undefined);
    if (content === undefined) continue;
    if (content !== "report\n") throw new Error(`${p} exists and is not the demo's: move it away`);
    await rm(p);
  }
  return paths;
}

async function replay(session: RecordedSession): Promise<void> {
  const port = await freePort();
  const home = await mkdtemp(join(scratch, `${session.name}-`));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    // The client's last context per URL: a fresh conversation, as a new user's.
    XDG_CONFIG_HOME: home,
    NO_COLOR: "1",
    LOG_LEVEL: "warn",
  };
  const created = await outsideFiles(session);
  const demo = await startDemo({ port, env });
  const recorded = new IdNumbering();
  const live = new IdNumbering();
  try {
    for (const step of session.steps) {
      const words = clientWords(step.command);
      if (words === undefined)
        throw new Error(`${session.where}: not a claude-a2a command: ${step.command}`);
      recorded.see(step.command);
      const args = words.map((w) => liveCommand(w, recorded, live));
      const r = await runClientCommand(args, { ...env, A2A_URL: demo.url });
      recorded.see(step.output);
      live.see(r.output);
      expect(normalise(r.output, live), `${session.where}: $ ${step.command}`).toBe(
        normalise(step.output, recorded),
      );
    }
  } finally {
    expect(await demo.stop()).toBe(0);
    for (const p of created) await rm(p, { force: true });
  }
}

describe("the recorded sessions of the docs, replayed on npm run demo", () => {
  it("finds the recorded sessions (docs/demo.md has a question, a permission and a diff)", () => {
    const names = sessions.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["question", "permission", "worktree-diff"]));
  });

  for (const session of sessions) {
    it(`reproduces "${session.name}" (${session.where})`, () => replay(session), 120_000);
  }
});
