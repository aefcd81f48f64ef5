/**
 * `claude.isolation: "worktree"`: a git worktree per conversation, on a branch of its own, with
 * an end-of-task commit. The git runner (`git.ts`: no shell, no `GIT_*` of ours, the settings
 * our commits need), one queue per repository (`serial-queue.ts`), the names and exclude lines
 * (`names.ts`, pure), the commit and its diff (`commit.ts`), and the manager (`manager.ts`).
 */
export { commitTask, parseNameStatus, type ChangedFile, type TaskCommit } from "./commit.js";
export { excludeServerFiles } from "./exclude.js";
export { GitError, gitEnv, runGit } from "./git.js";
export { configIncludes } from "./repository.js";
export {
  WORKTREE_SETUP,
  WorktreeManager,
  WorktreeSetupError,
  type ConversationRef,
  type WorktreeOptions,
} from "./manager.js";
export { BRANCH_PREFIX, branchName, worktreeName } from "./names.js";
export { SerialQueues } from "./serial-queue.js";
export { diffTo, headOf, keptBranch, rewindWorktree, type WorktreeRewind } from "./rewind.js";
