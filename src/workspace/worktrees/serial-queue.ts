/**
 * One queue per repository: git operations on one repository run one at a time (two `worktree
 * add`s or two commits at once would race for the repository's lock files and fail), those of
 * different repositories in parallel. A failed job fails only its own caller.
 */
export class SerialQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `job` after every job queued before it on `key`; settles as `job` does. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(job, job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // The last job of a key leaves nothing behind: a server that runs for months keeps no
    // entry per repository it touched once.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a job queued or running (tests: nothing stays behind). */
  get size(): number {
    return this.tails.size;
  }
}
