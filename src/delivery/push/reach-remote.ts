import type { RemoteConfig } from "../../config/forge-schema.js";
import { childEnv, DEFAULT_PUSH_USERNAME, pushGitEnv, runGit } from "./push-branch.js";
import { classifyPushOutput, safeTail, type PushFailure } from "./push-failure.js";

/**
 * `git ls-remote` of a remote with the server's credential, handed over exactly as a push hands
 * it (`--check`: the remote answers, and takes the token). Nothing is written anywhere.
 */
export async function reachRemote(
  remote: RemoteConfig,
  env: Readonly<Record<string, string | undefined>>,
  o: { readonly timeoutMs?: number; readonly cwd?: string } = {},
): Promise<{ ok: true } | { ok: false; failure: PushFailure | "config"; message: string }> {
  const token = env[remote.tokenEnv];
  if (!token) {
    return {
      ok: false,
      failure: "config",
      message: `the environment variable ${remote.tokenEnv} (tokenEnv) is not set`,
    };
  }
  const username = remote.username ?? DEFAULT_PUSH_USERNAME;
  const timeoutMs = o.timeoutMs ?? 20_000;
  const run = await runGit(
    "git",
    ["ls-remote", "--heads", remote.url],
    o.cwd ?? "/",
    { ...childEnv(env), ...pushGitEnv(remote.url, username, token) },
    timeoutMs,
  );
  if (run.code === 0 && run.stopped === undefined) return { ok: true };
  const failure: PushFailure = run.stopped ?? classifyPushOutput(run.stderr);
  const secrets = [token, Buffer.from(`${username}:${token}`).toString("base64")];
  const detail = safeTail(run.stderr, secrets);
  const said: Record<PushFailure, string> = {
    unauthorized: `the remote refused the token in ${remote.tokenEnv} (401)`,
    forbidden: `the token in ${remote.tokenEnv} may not read it (403)`,
    unreachable: "the remote is unreachable",
    "non-fast-forward": "the remote refused",
    rejected: "the remote refused",
    timeout: `no answer within ${Math.round(timeoutMs / 1000)} s`,
    canceled: "stopped",
    failed: "git ls-remote failed",
  };
  return { ok: false, failure, message: `${said[failure]}${detail ? ` (git: ${detail})` : ""}` };
}
