import { execFileSync } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGit } from "../../../../src/workspace/worktrees/git.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("the server's git on a repository another user owns", () => {
  // Only root may give a folder to another user; CI runs as root.
  it.skipIf(process.getuid?.() !== 0)(
    "still serves it, where plain git refuses it as dubious (needs root to chown)",
    async () => {
      const repo = await realpath(await mkdtemp(join(tmpdir(), "safe-directory-")));
      dirs.push(repo);
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          cwd: repo,
          env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
          stdio: "pipe",
        });
      git("init", "-q");
      await writeFile(join(repo, "a.txt"), "a\n");
      git("add", ".");
      git("commit", "-qm", "a");
      execFileSync("chown", ["-R", "12345:12345", repo]);
      expect(() => git("status")).toThrow(/dubious ownership/);
      const status = await runGit(repo, ["status", "--porcelain"]);
      expect(status.code).toBe(0);
    },
  );
});
