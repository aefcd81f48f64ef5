import type { TargetWork } from "../../delivery/target-step.js";
import type { TaskCore } from "./task-core.js";
import type { TaskWorktree } from "./task-worktree.js";

/** Why a delivery cannot go back to Claude: its conversation's session went away. */
export const SESSION_GONE = "the conversation's session is gone";

/** The text of the task's first message, as its client sent it (a pull request's title). */
export function promptText(core: TaskCore): string {
  if (core.origin.kind !== "client") return "";
  return core.origin.plan.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

/** The task's work as a target step finds it: committed on the conversation's branch. */
export function targetWork(cwd: string, work: ReturnType<TaskWorktree["work"]>): TargetWork {
  const { branch, baseCommit, commit, files } = work;
  return { cwd, branch, baseCommit, headCommit: commit, files };
}
