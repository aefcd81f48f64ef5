import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { KEPT_DIR } from "./conversation-repo.js";
import { GitError, runGit } from "./git.js";

/**
 * Git state the server found damaged (docs/workspaces.md, "When a repository is damaged"): the
 * workspace's repository, or one conversation's. Each conversation works in a repository of its
 * own, so a damaged one fails only its own conversation's tasks; `/healthz` and `--check` name it.
 */
export interface GitDamage {
  /** `workspace`, or the conversation's name (its folder and branch name). */
  readonly repository: string;
  /** What git said (the first line of its error). */
  readonly error: string;
  /** When it was first seen (ISO 8601). */
  readonly since: string;
}

/** The workspace's repository, as `GitDamage.repository` names it. */
export const WORKSPACE_REPOSITORY = "workspace";

/** The first line of what git said, without its `git … failed (128): ` preamble. Pure. */
export function damageText(err: unknown): string {
  const text =
    err instanceof GitError ? err.stderr : err instanceof Error ? err.message : String(err);
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "git failed"
  );
}

/** The damage seen while serving: recorded on a failure, cleared on the next success. */
export class DamageRecord {
  private readonly seen = new Map<string, GitDamage>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  record(repository: string, err: unknown): void {
    if (!(err instanceof GitError)) return;
    const since = this.seen.get(repository)?.since ?? this.now().toISOString();
    this.seen.set(repository, { repository, error: damageText(err), since });
  }

  clear(repository: string): void {
    this.seen.delete(repository);
  }

  list(): GitDamage[] {
    return [...this.seen.values()];
  }
}

/** What reading a repository's refs and HEAD says: undefined when it reads. */
async function readFails(folder: string): Promise<string | undefined> {
  try {
    await runGit(folder, ["for-each-ref", "--format=%(refname)"]);
    await runGit(folder, ["rev-parse", "--verify", "--quiet", "HEAD"], { okCodes: [1] });
    return undefined;
  } catch (err) {
    return damageText(err);
  }
}

/**
 * `--check`: the workspace's repository and every conversation's (worktrees and those retention
 * kept) read as git reads them; those that do not, named. Read-only.
 */
export async function damagedRepositories(cwd: string, dir: string): Promise<GitDamage[]> {
  const since = new Date().toISOString();
  const found: GitDamage[] = [];
  const check = async (repository: string, folder: string) => {
    const error = await readFails(folder);
    if (error !== undefined) found.push({ repository, error, since });
  };
  await check(WORKSPACE_REPOSITORY, cwd);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(".")) continue;
    const git = await lstat(join(dir, name, ".git")).catch(() => undefined);
    if (git?.isDirectory() === true) await check(name, join(dir, name));
  }
  const kept = join(dir, KEPT_DIR);
  for (const name of await readdir(kept).catch(() => [] as string[])) {
    if (name.endsWith(".git")) await check(name.slice(0, -4), join(kept, name));
  }
  return found;
}
