import type { TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { ResumePoint } from "../../claude/index.js";
import type { ControlRecord } from "../../contract/control.js";
import { CONTROL_TEXT } from "../../contract/control-texts.js";
import { artifact, dataPart, textPart } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import { diffArtifact, WORKTREE_KEY } from "../../contract/worktree.js";
import { resumePointOf } from "../control/rewind-fork-point.js";
import { parseConversationKey } from "../../identity/conversation.js";
import type { ControlStart, RestartPlan } from "./control-start.js";
import type { ForkFrom } from "./environment.js";
import type { TaskCore } from "./task-core.js";
import type { TaskFinish } from "./task-finish.js";

type Found = Exclude<ResumePoint, { kind: "missing" }>;

const planAt = (sessionId: string, point: Found, fork: boolean): RestartPlan => {
  const f = fork ? { fork } : {};
  switch (point.kind) {
    case "at":
      return { resume: sessionId, resumeAt: point.uuid, ...f };
    case "start":
      return { resume: undefined };
  }
};

/**
 * A task's rewind or fork, in its start (task-start.ts): before its prompt goes, the
 * conversation's next session is set to resume where it should (`resumeSessionAt`, or a fork of
 * the source's session), and the files go back (the worktree reset; without worktrees, Claude
 * Code's checkpoints). A dry run answers the diff and completes. Each step returns false when
 * the task has ended (done, or failed with the reason).
 */
export class TaskControl {
  constructor(
    private readonly core: TaskCore,
    private readonly finish: TaskFinish,
    private readonly start: ControlStart,
  ) {}

  /** Where a fork's new worktree starts (undefined: the workspace's HEAD at startup). */
  get forkPoint(): ForkFrom | undefined {
    const start = this.start;
    const commit = start.kind === "fork" ? start.record.endCommit : undefined;
    if (start.kind !== "fork" || commit === undefined) return undefined;
    const contextId = parseConversationKey(start.source)?.contextId ?? start.source;
    return { commit, source: { key: start.source, contextId } };
  }

  /** After the worktree is ready, before the process slot. */
  async apply(): Promise<boolean> {
    try {
      return this.start.kind === "rewind" ? await this.rewind(this.start) : await this.fork();
    } catch (err) {
      this.core.logger.error({ err }, "task: the rewind or fork failed");
      this.finish.fail(err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  private env() {
    const env = this.core.env.control;
    if (env === undefined) throw new Error("rewind and fork are not available on this server");
    return env;
  }

  private async rewind(s: Extract<ControlStart, { kind: "rewind" }>): Promise<boolean> {
    const core = this.core;
    const env = this.env();
    const { sessionId, promptUuid, startCommit } = s.record as Required<ControlRecord>;
    const at = resumePointOf(
      "rewind",
      s.taskId,
      promptUuid,
      env.transcript(sessionId, core.conversation),
    );
    if (!at.ok) return this.fail(at.reason);
    const point = at.point;
    const ref = { key: core.conversation, contextId: core.ref.contextId };
    const iso = core.env.isolation?.worktrees;
    let files: string;
    let extra: Record<string, unknown> = {};
    if (iso?.rewind !== undefined && iso.diffTo !== undefined) {
      if (s.dryRun) {
        const diff = await iso.diffTo(ref, startCommit);
        const shape = { branch: "", baseCommit: "HEAD", commit: startCommit, files: [] };
        const max = core.env.isolation?.maxDiffBytes ?? Number.MAX_SAFE_INTEGER;
        return this.answerDryRun(diffArtifact(core.ref.taskId, shape, diff, max), s.taskId);
      }
      const r = await iso.rewind(ref, startCommit, core.ref.taskId);
      files = CONTROL_TEXT.rewoundWorktree(r.resetTo, r.keptRef);
      extra = { [WORKTREE_KEY]: { rewound: r } };
      core.rewound = r;
      // It begins where the worktree now is: a rewind to it goes back there.
      core.record.startCommit = core.record.endCommit = r.resetTo;
    } else {
      const lease = core.env.acquire(core.conversation);
      let result;
      try {
        result = await lease.session.rewindFiles(promptUuid, s.dryRun);
      } finally {
        lease.release();
      }
      if (s.dryRun) {
        const changed = result.filesChanged ?? [];
        const text = CONTROL_TEXT.dryRunCheckpoints(
          s.taskId,
          changed,
          result.insertions ?? 0,
          result.deletions ?? 0,
        );
        const parts = [textPart(text), dataPart({ ...result })];
        const a = artifact("rewind-dry-run", "rewind-dry-run", parts, {});
        return this.answerDryRun(a, s.taskId);
      }
      if (!result.canRewind && point.kind !== "start") {
        return this.fail(CONTROL_TEXT.checkpointsFailed(result.error ?? "unknown reason"));
      }
      files = CONTROL_TEXT.rewoundCheckpoints(result.filesChanged ?? []);
      extra = { checkpoints: { filesChanged: result.filesChanged ?? [] } };
    }
    await env.restartAt(core.conversation, planAt(sessionId, point, false));
    core.record.rewoundTo = s.taskId;
    const first = point.kind === "start" ? ` ${CONTROL_TEXT.rewindFirst}` : "";
    const text = CONTROL_TEXT.rewound(s.taskId, files) + first;
    this.publish(status.rewound(core.ref, text, { rewindTo: s.taskId, ...extra }));
    return !core.ended;
  }

  private async fork(): Promise<boolean> {
    const s = this.start as Extract<ControlStart, { kind: "fork" }>;
    const core = this.core;
    const env = this.env();
    const { sessionId, promptUuid } = s.record as Required<ControlRecord>;
    // The source's idle process is closed first, so its transcript says which branch is its end.
    await env.settle(s.source);
    const at = resumePointOf("fork", s.taskId, promptUuid, env.transcript(sessionId, s.source));
    if (!at.ok) return this.fail(at.reason);
    if (core.env.isolation !== undefined) {
      await env.shareTranscript(sessionId, s.source, core.conversation);
    }
    await env.restartAt(core.conversation, planAt(sessionId, at.point, true));
    core.record.forkOf = s.taskId;
    this.publish(status.forked(core.ref, CONTROL_TEXT.forked(s.taskId), s.taskId));
    return !core.ended;
  }

  private publish(update: TaskStatusUpdateEvent): void {
    if (!this.core.ended) this.core.channel.status(update);
  }

  private answerDryRun(a: ReturnType<typeof artifact>, taskId: string): boolean {
    const core = this.core;
    if (core.ended) return false;
    const { taskId: id, contextId } = core.ref;
    core.channel.artifact({
      taskId: id,
      contextId,
      artifact: a,
      append: false,
      lastChunk: true,
      metadata: undefined,
    });
    this.finish.complete(CONTROL_TEXT.dryRun(taskId));
    return false;
  }

  private fail(reason: string): boolean {
    this.finish.fail(reason);
    return false;
  }
}
