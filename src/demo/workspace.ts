import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runGit } from "../workspace/worktrees/git.js";

/** Where a demo runs: the served directory, the runtime's own folders, and how to clean up. */
export interface DemoWorkspace {
  /** The served directory (a real path). */
  readonly cwd: string;
  /**
   * Conversations get worktrees (and the final status a diff): in the temporary repository the
   * demo made. A directory the user named is served as it is ("shared"): no branch of ours
   * appears in their repository.
   */
  readonly worktrees: boolean;
  /** CLAUDE_CONFIG_DIR and CLAUDE_CODE_TMPDIR of the runtime: never the user's own. */
  readonly configDir: string;
  readonly tmpDir: string;
  /**
   * Where the server keeps the session map and pid file: never the served directory's, which a
   * real server may have written (its transcripts are not in `configDir`: the demo would drop
   * every mapping as stale).
   */
  readonly stateDir: string;
  /** Removes what the demo created (a temporary workspace entirely; else its runtime folders). */
  remove(): Promise<void>;
}

/** The demo commit's identity (command-line config beats the server's own). */
const GIT = ["-c", "user.name=claude-a2a demo", "-c", "user.email=demo@localhost"];

const FENCE = `# The fence\n\nA demo workspace of claude-a2a: the scripted model paints this fence.\n`;

/** A fresh temporary git repository with one commit, or the directory the user named. */
export async function openDemoWorkspace(dir: string | undefined): Promise<DemoWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "claude-a2a-demo-")));
  const configDir = join(root, "claude-config");
  const tmpDir = join(root, "tmp");
  const stateDir = join(root, "state");
  await mkdir(configDir);
  await mkdir(tmpDir);
  if (dir !== undefined) {
    const cwd = await realpath(resolve(dir)).catch(() => undefined);
    if (cwd === undefined || !(await stat(cwd)).isDirectory()) {
      await rm(root, { recursive: true, force: true });
      throw new Error(`no such directory: ${dir}`);
    }
    return {
      cwd,
      worktrees: false,
      configDir,
      tmpDir,
      stateDir,
      remove: () => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
    };
  }
  const cwd = join(root, "workspace");
  await mkdir(cwd);
  await writeFile(join(cwd, "README.md"), FENCE);
  let worktrees = true;
  try {
    // The server's own git (no config of the user's, nothing a config names runs).
    await runGit(cwd, ["init", "--quiet", "--initial-branch=main"]);
    await runGit(cwd, ["add", "README.md"]);
    await runGit(cwd, [...GIT, "commit", "--quiet", "--no-verify", "-m", "The fence"]);
  } catch {
    // No git on this machine: the demo still runs, without worktrees.
    worktrees = false;
  }
  return {
    cwd,
    worktrees,
    configDir,
    tmpDir,
    stateDir,
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
