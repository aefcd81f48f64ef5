import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkCommand, checkEnvironment } from "../../../src/delivery/check-command.js";
import { runCheck } from "../../../src/delivery/check-runner.js";

const dir = mkdtempSync(join(tmpdir(), "delivery-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const check = (command: string, timeoutSeconds = 60) => ({ name: "c", command, timeoutSeconds });

describe("a check's command line and environment", () => {
  it("is /bin/sh -c without a sandbox", () => {
    expect(checkCommand("npm test", "/w")).toEqual({ file: "/bin/sh", args: ["-c", "npm test"] });
  });

  it("runs under bubblewrap with the worktree writable and no network with one", () => {
    const { file, args } = checkCommand("npm test", "/w", {
      bwrap: "/usr/bin/bwrap",
      weakerNested: false,
    });
    expect(file).toBe("/usr/bin/bwrap");
    expect(args.join(" ")).toContain("--ro-bind / / ");
    expect(args.join(" ")).toContain("--bind /w /w --chdir /w");
    expect(args).toContain("--unshare-net");
    expect(args).toContain("--proc");
    expect(args.slice(-3)).toEqual(["/bin/sh", "-c", "npm test"]);
    const nested = checkCommand("x", "/w", { bwrap: "b", weakerNested: true }).args.join(" ");
    expect(nested).toContain("--bind /proc /proc");
  });

  it("never passes the model's keys; with the sandbox, only plain variables", () => {
    const child = {
      PATH: "/bin",
      ANTHROPIC_API_KEY: "sk-1",
      CLAUDE_CODE_OAUTH_TOKEN: "o",
      GH_TOKEN: "g",
    };
    expect(checkEnvironment(child, undefined)).toEqual({ PATH: "/bin", GH_TOKEN: "g" });
    expect(checkEnvironment(child, (n) => n === "PATH")).toEqual({ PATH: "/bin" });
  });
});

describe("running one check (runCheck)", () => {
  it("passes on exit code 0, in its folder, with the output's tail", async () => {
    const ran = await runCheck(check("pwd; echo fine"), 1, { cwd: dir, env });
    expect(ran).toMatchObject({ round: 1, check: "c", result: "passed", exitCode: 0 });
    expect(ran.outputTail).toBe(`${dir}\nfine`);
  });

  it("fails on another code, stdout and stderr both kept", async () => {
    const ran = await runCheck(check("echo out; echo err >&2; exit 3"), 2, { cwd: dir, env });
    expect(ran).toMatchObject({ round: 2, result: "failed", exitCode: 3 });
    expect(ran.outputTail).toContain("out");
    expect(ran.outputTail).toContain("err");
  });

  it("gets only the environment it is given", async () => {
    const ran = await runCheck(check('echo "[$HOME_SECRET]"'), 1, { cwd: dir, env });
    expect(process.env.HOME_SECRET).toBeUndefined();
    expect(ran.outputTail).toBe("[]");
  });

  it("is killed with its children past its time limit, and counts as failed", async () => {
    const ran = await runCheck(check("echo started; sleep 30 & sleep 30", 1), 1, { cwd: dir, env });
    expect(ran).toMatchObject({ result: "timed_out", exitCode: null });
    expect(ran.outputTail).toBe("started");
  }, 20_000);

  it("is killed when the task ends", async () => {
    const abort = new AbortController();
    const running = runCheck(check("echo up; sleep 30"), 1, {
      cwd: dir,
      env,
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 100);
    const ran = await running;
    expect(ran.result).toBe("failed");
    expect(ran.exitCode).toBeNull();
  }, 20_000);

  it("fails, saying why, when its command cannot start", async () => {
    const ran = await runCheck(check("true"), 1, { cwd: join(dir, "missing"), env });
    expect(ran.result).toBe("failed");
    expect(ran.outputTail).toMatch(/ENOENT/);
  });
});
