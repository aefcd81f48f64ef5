/**
 * What the targets `push` and `pull-request` of a delivery record and say (docs/delivery.md
 * "Push", "Pull requests"): the fields they add to the proof of work and to the final status's
 * `metadata.delivery`, and the texts of their `delivery` statuses and failures. Both clients read
 * these shapes.
 */

/** A push, as the proof of work and `metadata.delivery` hold it (`push`). */
export interface PushRecord {
  /** The remote's URL (never with credentials: the config refuses them). */
  readonly remote: string;
  /** `refs/heads/<branch>` on the remote. */
  readonly ref: string;
  /** The commit pushed: the branch's head after the task. */
  readonly commit: string;
  readonly durationMs: number;
  /** Set when it failed: why, as docs/forges.md names it (`unauthorized`, `unreachable`…). */
  readonly error?: string;
}

/** A pull (GitHub) or merge (GitLab) request, as the proof of work holds it (`pullRequest`). */
export interface PullRequestRecord {
  readonly forge: "github" | "gitlab";
  /** GitHub's pull request number, GitLab's merge request iid. */
  readonly number: number;
  readonly url: string;
  /** Opened by this delivery, or the one already open for the branch, updated. */
  readonly action: "opened" | "updated";
  /** The forge calls' time (listing, then opening or updating). */
  readonly durationMs: number;
}

/** The longest pull request title taken from a task's prompt (GitHub allows 256). */
export const TITLE_MAX = 72;

export const PUSH_TEXT = {
  pushing: (branch: string, remote: string) => `Delivery: pushing ${branch} to ${remote}.`,
  pushed: (branch: string, commit: string, remote: string, ms: number) =>
    `Delivery: pushed ${branch} (${commit.slice(0, 12)}) to ${remote} (${seconds(ms)}).`,
  opening: (forge: string, branch: string, base: string) =>
    `Delivery: opening the ${requestWord(forge)} of ${branch} into ${base}.`,
  opened: (forge: string, r: Pick<PullRequestRecord, "number" | "url" | "action">) =>
    `Delivery: ${r.action} ${requestWord(forge)} ${forge === "gitlab" ? "!" : "#"}${r.number}` +
    `${r.url === "" ? "" : ` (${r.url})`}.`,
  /** A push that failed: git's reason (token-free), and where the work still is. */
  pushFailed: (message: string, branch: string) =>
    `Delivery failed: ${message.replace(/\.$/, "")}. The work stays on the branch ${branch}.`,
  /** A pull request that could not be opened: the forge's reason; the branch is pushed. */
  requestFailed: (forge: string, message: string, branch: string, remote: string) =>
    `Delivery failed: the ${requestWord(forge)} could not be opened or updated: ` +
    `${message.replace(/\.$/, "")}. The branch ${branch} is pushed to ${remote}.`,
  noToken: (tokenEnv: string) =>
    `the environment variable ${tokenEnv} (claude.delivery.forge.tokenEnv) is not set`,
  noBase:
    "the workspace had no branch checked out when the server started (a detached HEAD): " +
    "set claude.delivery.baseBranch",
} as const;

function requestWord(forge: string): string {
  return forge === "gitlab" ? "merge request" : "pull request";
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
