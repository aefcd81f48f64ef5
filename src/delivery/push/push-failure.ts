/**
 * What a failed `git push` means, read from git's own output, and that output made safe to show:
 * pure, so every case is a unit test without a remote.
 */

export type PushFailure =
  | "unauthorized"
  | "forbidden"
  | "unreachable"
  | "non-fast-forward"
  | "rejected"
  | "timeout"
  /** The task ended (canceled, say) before git did: it was stopped. */
  | "canceled"
  | "failed";

/** The failure git's output (stderr and `--porcelain` stdout) names. Pure. */
export function classifyPushOutput(output: string): PushFailure {
  if (/\(non-fast-forward\)|\(fetch first\)|\[rejected\]/i.test(output)) {
    return /\(non-fast-forward\)|\(fetch first\)/i.test(output) ? "non-fast-forward" : "rejected";
  }
  if (
    /returned error: 401|Authentication failed|could not read (Username|Password)|terminal prompts disabled/i.test(
      output,
    )
  ) {
    return "unauthorized";
  }
  if (/returned error: 403|\b403 Forbidden\b/i.test(output)) return "forbidden";
  if (
    /Failed to connect|Couldn't connect|Connection refused|Could not resolve host|Connection timed out|Operation timed out|Empty reply from server|Recv failure|returned error: 5\d\d/i.test(
      output,
    )
  ) {
    return "unreachable";
  }
  if (/\[remote rejected\]|pre-receive hook declined/i.test(output)) return "rejected";
  return "failed";
}

/** The sentence a failure reads as, to an operator who has to act on it. Pure. */
export function pushFailureText(
  failure: PushFailure,
  where: { branch: string; url: string; tokenEnv: string; timeoutMs: number },
  detail: string,
): string {
  const head = `Pushing ${where.branch} to ${where.url} failed`;
  const tail = detail === "" ? "" : ` (git: ${detail})`;
  switch (failure) {
    case "unauthorized":
      return `${head}: the remote refused the token in ${where.tokenEnv} (401). Check that it is set, valid and allowed to push${tail}.`;
    case "forbidden":
      return `${head}: the token in ${where.tokenEnv} may not push there (403)${tail}.`;
    case "unreachable":
      return `${head}: the remote is unreachable${tail}.`;
    case "non-fast-forward":
      return `${head}: the remote's ${where.branch} has commits this branch does not (non-fast-forward); nothing was overwritten${tail}.`;
    case "rejected":
      return `${head}: the remote rejected it${tail}.`;
    case "timeout":
      return `${head}: no answer within ${Math.round(where.timeoutMs / 1000)} s${tail}.`;
    case "canceled":
      return `${head}: the task ended first, and the push was stopped${tail}.`;
    case "failed":
      return `${head}${tail}.`;
  }
}

/**
 * The last meaningful lines of git's output, with every secret replaced: a line that git
 * printed is quoted in errors and logs, so it must never carry the token. Pure.
 */
export function safeTail(output: string, secrets: readonly string[], maxLines = 3): string {
  let text = output;
  for (const secret of secrets) if (secret !== "") text = text.split(secret).join("***");
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("To ") && l !== "Done")
    .slice(-maxLines)
    .join(" / ")
    .slice(0, 600);
}

/** A branch name git takes as `refs/heads/<name>` and never as an option. Pure. */
export function branchProblem(branch: string): string | undefined {
  const bad =
    branch === "" ||
    branch.startsWith("-") ||
    branch.startsWith("/") ||
    branch.endsWith("/") ||
    branch.endsWith(".") ||
    branch.endsWith(".lock") ||
    branch.includes("..") ||
    branch.includes("//") ||
    branch.includes("@{") ||
    [...branch].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f) ||
    // The characters git forbids in a ref name.
    /[~^:?*[\\]/.test(branch);
  return bad ? `"${branch}" is not a branch name git can push` : undefined;
}
