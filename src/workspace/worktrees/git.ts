import { execFile } from "node:child_process";
import { DRIVER_KEYS, gitSettings, settingsEnv } from "./git-settings.js";

/**
 * Runs git without a shell and without the caller's surprises: no `GIT_*` variable of the
 * server's environment reaches it (a `GIT_DIR` or `GIT_INDEX_FILE` would point it elsewhere), no
 * prompt waits for a terminal, no system or global config is read, and the settings of
 * git-settings.ts (our identity, and nothing a repository's config names ever runs) are given as
 * command-line config, which beats every config file. The drivers to neutralize are read before
 * each command, so one a config file gained since is covered too.
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

/**
 * The environment git runs with: this process's, minus every `GIT_*` variable (a `GIT_DIR`,
 * `GIT_CONFIG_PARAMETERS` or `GIT_EXEC_PATH` would point it elsewhere or configure it), and no
 * system or global config file (the operator's `~/.gitconfig` may name programs too). Pure.
 */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("GIT_")) out[name] = value;
  }
  out.GIT_CONFIG_NOSYSTEM = "1";
  out.GIT_CONFIG_GLOBAL = "/dev/null";
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
  const env = gitEnv(options.env ?? process.env);
  const drivers = ["config", "--null", "--includes", "--get-regexp", DRIVER_KEYS];
  return execGit(cwd, drivers, env, {
    okCodes: [1],
    ...(options.signal !== undefined && { signal: options.signal }),
  }).then((listing) =>
    execGit(cwd, args, { ...env, ...settingsEnv(gitSettings(listing.stdout)) }, options),
  );
}

/** `git <args>` in `cwd` with exactly `env`. */
function execGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: Pick<RunGitOptions, "okCodes" | "signal">,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        env,
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
