import { isRefused } from "../../common/safe-files.js";
import { logFileRefusal } from "../../sandbox/denial-log.js";
import { sessionResetText } from "../../sessions/recovery.js";
import { status } from "../../contract/statuses.js";
import { TEXT } from "../../contract/texts.js";
import { toUserPrompt } from "../content/input.js";
import type { ForkFrom, TaskOrigin } from "./environment.js";
import { TaskControl } from "./task-control.js";
import type { TaskCore } from "./task-core.js";
import type { TaskFinish } from "./task-finish.js";
import type { TaskRuns } from "./task-runs.js";

type ClientOrigin = Extract<TaskOrigin, { kind: "client" }>;

/**
 * How a client's task gets to Claude: its turn in the conversation's queue (`granted`), where
 * it works (the workspace or its conversation's worktree), its attachments in the inbox, a
 * process slot under `sessions.maxLive`, the lease of the conversation's session, then its
 * prompt. Whatever must happen before a prompt is sent (a cold start, a sandbox, a delegated
 * prompt's set-up) lands here.
 */
export class TaskStart {
  constructor(
    private readonly core: TaskCore,
    private readonly runs: TaskRuns,
    private readonly finish: TaskFinish,
  ) {}

  async start({ plan, ticket, settings, control }: ClientOrigin): Promise<void> {
    const core = this.core;
    if (!ticket.immediate) {
      core.channel.status(status.queued(core.ref, "context"));
    }
    await Promise.race([ticket.ready, core.endedGate]);
    if (!core.step({ type: "granted" })) return;
    const rewindOrFork = control && new TaskControl(core, this.finish, control);
    const cwd = await this.workFolder(rewindOrFork?.forkPoint);
    if (cwd === undefined) return;
    // Before the prompt: the conversation and its files go where the rewind or fork says.
    if (rewindOrFork !== undefined && !(await rewindOrFork.apply())) return;
    if (plan.files.length > 0) {
      try {
        await core.env.inbox.write(cwd, plan.files);
      } catch (err) {
        if (isRefused(err)) {
          // A link planted where the inbox goes: nothing is written through it.
          logFileRefusal(core.logger, err);
          core.env.fileRefused?.(err);
          this.finish.fail(TEXT.inboxFailed(err.message));
        } else {
          core.logger.error({ err }, "inbox write failed");
          this.finish.fail(TEXT.inboxFailed(String(err)));
        }
        return;
      }
      if (core.ended) {
        // Canceled while its attachments were written: Claude never sees them, nothing keeps them.
        await core.env.inbox.remove(cwd, plan.folder).catch((err: unknown) => {
          core.logger.warn({ err }, "inbox cleanup failed");
        });
        return;
      }
    }
    if (!(await this.processSlot())) return;
    const lease = core.env.acquire(core.conversation);
    core.lease = lease;
    if (lease.reset !== undefined) {
      // Still submitted: the prompt is not with Claude yet; the client learns why it starts over.
      core.channel.status(status.sessionReset(core.ref, sessionResetText(lease.reset)));
    }
    const stream = lease.session.stream(toUserPrompt(plan), settings);
    // Where the task began in the conversation: a later rewind or fork of it starts there.
    core.record.promptUuid ??= stream.promptUuid;
    await this.runs.consume(stream, true);
    // A delivery's checks and fix turns use the conversation too: it stays the task's until it ends.
    if (this.finish.delivery !== undefined) await core.endedGate;
  }

  /**
   * Where the task works: the workspace, or its conversation's worktree, created on its first
   * task. Undefined if the task ended meanwhile, or the worktree could not be made (it fails).
   */
  private async workFolder(from?: ForkFrom): Promise<string | undefined> {
    const core = this.core;
    if (core.worktree === undefined) return core.env.cwd;
    try {
      const cwd = await core.worktree.prepare(from);
      return core.ended ? undefined : cwd;
    } catch (err) {
      core.logger.error({ err }, "task: the conversation's worktree could not be prepared");
      this.finish.fail(TEXT.worktreeFailed(err instanceof Error ? err.message : String(err)));
      return undefined;
    }
  }

  /**
   * A context without a live process waits until one fits under `sessions.maxLive`. False if the
   * task ended meanwhile (the slot kept for it is given back).
   */
  private async processSlot(): Promise<boolean> {
    const core = this.core;
    const waits = core.env.mustWait(core.conversation);
    if (waits) {
      core.channel.status(status.queued(core.ref, "process"));
    }
    const abort = new AbortController();
    let waiting = true;
    // Only a wait under way is left: aborting later would cost an AbortError for nothing.
    void core.endedGate.then(() => waiting && abort.abort());
    try {
      await core.env.whenFree(core.conversation, abort.signal);
    } catch (err) {
      // Ended while waiting (it left the queue), or no process will come: the server is stopping.
      if (!core.ended) this.finish.fail(TEXT.didNotStart((err as Error).message));
      return false;
    } finally {
      waiting = false;
    }
    if (core.ended) {
      core.env.forgo(core.conversation);
      return false;
    }
    if (waits) core.logger.debug("task: a Claude Code process freed for it");
    return true;
  }
}
