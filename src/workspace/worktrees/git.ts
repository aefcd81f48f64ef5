import { execFile } from "node:child_process";

/**
 * Runs git without a shell and without the caller's surprises: no `GIT_*` variable of the
 * server's environment reaches it (a `GIT_DIR` or `GIT_INDEX_FILE` would point it elsewhere), no
 * prompt waits for a terminal, and the settings every command of ours needs are given on the
 * command line, where they beat every config file.
 */

/** A git command failed: its arguments, exit code and what it printed to standard error. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string | undefined,
    readonly stderr: string,
  ) {
    super(
      `git ${args.join(" ")} failed${code === undefined ? "" : ` (${code})`}: ${stderr.trim()}`,
    );
  }
}

/** The identity of the server's commits, and settings that must not come from a config file. */
export const GIT_SETTINGS: readonly string[] = [
  "-c",
  "user.name=claude-a2a",
  "-c",
  "user.email=claude-a2a@localhost",
  "-c",
  "commit.gpgsign=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.quotepath=false",
  "-c",
  "diff.noprefix=false",
  "-c",
  "color.ui=false",
];

/** The environment git runs with: this process's, minus every `GIT_*` variable. Pure. */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("GIT_")) out[name] = value;
  }
  out.GIT_TERMINAL_PROMPT = "0";
  // Status and diff take no lock they do not need (a parallel command would fail on it).
  out.GIT_OPTIONAL_LOCKS = "0";
  return out;
}

export interface GitResult {
  readonly stdout: string;
  readonly code: number;
}

export interface RunGitOptions {
  /** Exit codes that are answers, not failures (`diff --quiet` exits 1 for "differs"). */
  readonly okCodes?: readonly number[];
  readonly env?: NodeJS.ProcessEnv;
  /** Ends the command (SIGTERM, on which git removes the lock files it holds). */
  readonly signal?: AbortSignal;
}

/** Most output a command of ours may print (a diff of a large task). */
const MAX_BUFFER = 256 * 1024 * 1024;

/** `git <args>` in `cwd`; rejects with a `GitError` (or ENOENT when git is not installed). */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: RunGitOptions = {},
): Promise<GitResult> {
  const full = [...GIT_SETTINGS, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      full,
      {
        cwd,
        env: gitEnv(options.env ?? process.env),
        maxBuffer: MAX_BUFFER,
        encoding: "utf8",
        ...(options.signal !== undefined && { signal: options.signal }),
      },
      (err, stdout, stderr) => {
        if (err === null) {
          resolve({ stdout, code: 0 });
          return;
        }
        const code = (err as NodeJS.ErrnoException & { code?: number | string }).code;
        if (typeof code === "number" && options.okCodes?.includes(code)) {
          resolve({ stdout, code });
          return;
        }
        if (code === "ENOENT") {
          reject(Object.assign(new Error(err.message), { code }));
          return;
        }
        reject(new GitError(args, code, stderr));
      },
    );
  });
}
