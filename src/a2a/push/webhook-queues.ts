/**
 * One delivery queue per webhook of a task: a job waits only for the jobs queued before it on
 * the same webhook, so order is kept per webhook and a slow or refusing endpoint delays nothing
 * but itself. A queue is forgotten once empty.
 */
export class WebhookQueues {
  /** By task, then webhook: the last job queued (the next one chains on it). */
  private readonly tails = new Map<string, Map<string, Promise<void>>>();

  /** Runs `job` after the jobs queued before it for `webhook` of `taskId`; never rejects. */
  enqueue(taskId: string, webhook: string, job: () => Promise<void>): void {
    let byWebhook = this.tails.get(taskId);
    if (byWebhook === undefined)
      this.tails.set(taskId, (byWebhook = new Map<string, Promise<void>>()));
    const queue = byWebhook;
    const previous = queue.get(webhook) ?? Promise.resolve();
    const next = previous.then(job).catch(() => undefined);
    queue.set(webhook, next);
    void next.then(() => {
      if (queue.get(webhook) !== next) return;
      queue.delete(webhook);
      if (queue.size === 0 && this.tails.get(taskId) === queue) this.tails.delete(taskId);
    });
  }

  /** Resolves when every job queued for `taskId` so far has run. */
  async idle(taskId: string): Promise<void> {
    await Promise.all([...(this.tails.get(taskId)?.values() ?? [])]);
  }
}
