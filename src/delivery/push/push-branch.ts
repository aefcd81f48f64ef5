import { spawn } from "node:child_process";
import type { Logger } from "pino";
import { killProcessGroup } from "../../common/process-group.js";
import type { RemoteConfig } from "../../config/forge-schema.js";
import {
  branchProblem,
  classifyPushOutput,
  pushFailureText,
  safeTail,
  type PushFailure,
} from "./push-failure.js";

/**
 * A branch pushed with the server's credentials, never Claude's (docs/forges.md): the token is
 * read from the variable the remote names and handed to this one `git push` child only, as an
 * `http.<url>.extraHeader` in the child's environment (GIT_CONFIG_COUNT/KEY/VALUE). So it is in
 * no `.git/config`, not in the command line other users can read, and not in any environment
 * Claude Code or the sandbox gets; every output quoted back is redacted.
 */

export const DEFAULT_PUSH_USERNAME = "x-access-token";

export interface PushOptions {
  /** A repository or worktree directory holding the branch. */
  readonly repoDir: string;
  readonly remote: RemoteConfig;
  readonly branch: string;
  /** The environment the token is read from (`remote.tokenEnv`) and the child's base. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The push's time limit (default 120 s). */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
  /** The git binary (default "git" on PATH). */
  readonly git?: string;
  /** Stops the push (its git killed) when the task ends first: a cancel does not wait on it. */
  readonly signal?: AbortSignal;
}

export type PushResult =
  | { readonly ok: true; readonly branch: string; readonly url: string }
  | { readonly ok: false; readonly failure: PushFailure | "config"; readonly message: string };

/** The git config the child gets through its environment: the header, and nothing of the repo's
 * that would run a program (hooks) or ask for other credentials. Pure. */
export function pushGitEnv(url: string, username: string, token: string): Record<string, string> {
  const basic = Buffer.from(`${username}:${token}`).toString("base64");
  const entries: [string, string][] = [
    // Scoped to the remote's URL: a redirect elsewhere does not get it.
    [`http.${url}.extraHeader`, `Authorization: Basic ${basic}`],
    // No credential helper of the machine's config answers for this push…
    ["credential.helper", ""],
    // …and no hook of the repository runs: the conversation could have written one.
    ["core.hooksPath", "/dev/null"],
  ];
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(entries.length),
    GIT_TERMINAL_PROMPT: "0",
  };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

export async function pushBranch(o: PushOptions): Promise<PushResult> {
  const { url, tokenEnv } = o.remote;
  const timeoutMs = o.timeoutMs ?? 120_000;
  const token = o.env[tokenEnv];
  const refused = (message: string): PushResult => {
    o.logger?.warn({ remote: url, branch: o.branch, outcome: "config" }, "push: not attempted");
    return { ok: false, failure: "config", message };
  };
  if (!token) return refused(`The environment variable ${tokenEnv} (tokenEnv) is not set.`);
  const problem = branchProblem(o.branch);
  if (problem !== undefined) return refused(`Cannot push: ${problem}.`);
  const username = o.remote.username ?? DEFAULT_PUSH_USERNAME;
  const secrets = [token, Buffer.from(`${username}:${token}`).toString("base64")];
  const ref = `refs/heads/${o.branch}`;
  const run = await runGit(
    o.git ?? "git",
    ["push", "--porcelain", "--no-verify", url, `${ref}:${ref}`],
    o.repoDir,
    { ...childEnv(o.env), ...pushGitEnv(url, username, token) },
    timeoutMs,
    o.signal,
  );
  if (run.code === 0 && run.stopped === undefined) {
    o.logger?.info({ remote: url, branch: o.branch, outcome: "pushed" }, "push: pushed");
    return { ok: true, branch: o.branch, url };
  }
  const output = `${run.stderr}\n${run.stdout}`;
  const failure: PushFailure = run.stopped ?? classifyPushOutput(output);
  const detail = safeTail(run.stderr.trim() === "" ? run.stdout : run.stderr, secrets);
  const message = pushFailureText(failure, { branch: o.branch, url, tokenEnv, timeoutMs }, detail);
  o.logger?.warn({ remote: url, branch: o.branch, outcome: failure, detail }, "push: failed");
  return { ok: false, failure, message };
}

/** The server's environment for its git child, without git settings that would override ours. */
export function childEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)$/.test(k)) continue;
    out[k] = v;
  }
  return out;
}

export interface GitRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why git was killed before it ended: its time limit, or `signal` (the task ended). */
  readonly stopped: "timeout" | "canceled" | undefined;
}

export function runGit(
  git: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<GitRun> {
  return new Promise((resolve) => {
    // Its own process group: git's transport (git-remote-http) holds the pipes too, so killing
    // git alone would leave the push waiting on it.
    const child = spawn(git, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let stopped: GitRun["stopped"];
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const stop = (why: "timeout" | "canceled") => {
      stopped ??= why;
      killProcessGroup(child);
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("canceled");
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const done = (run: GitRun) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(run);
    };
    child.on("error", (err) => {
      done({ code: null, stdout, stderr: `${stderr}\n${err.message}`, stopped });
    });
    child.on("close", (code) => done({ code, stdout, stderr, stopped }));
  });
}
