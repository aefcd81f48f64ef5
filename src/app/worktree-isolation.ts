import type { Logger } from "pino";
import type { TaskEnvironment } from "../a2a/task/environment.js";
import type { Config } from "../config/schema.js";
import { ANONYMOUS_OWNER } from "../identity/caller.js";
import { parseConversationKey } from "../identity/conversation.js";
import { PIDS_FILE } from "../sessions/orphans.js";
import { CONFIG_SEEN_FILE } from "../common/workspace-files.js";
import { SESSIONS_DB_FILE, SESSIONS_FILE } from "../store/session-map.js";
import { INBOX_DIR } from "../workspace/inbox.js";
import type { TaskIsolation } from "../a2a/task/environment.js";
import { excludeServerFiles } from "../workspace/worktrees/exclude.js";
import { WorktreeManager, type ConversationRef } from "../workspace/worktrees/manager.js";
import { configIncludes } from "../workspace/worktrees/repository.js";
import { diffTo, headOf, keptBranch, rewindWorktree } from "../workspace/worktrees/rewind.js";
import type { SpareSite } from "../sessions/spare-sessions.js";
import type { GitDamage } from "../workspace/worktrees/damage.js";

/** What a task does with its conversation's worktree: the manager's steps, and a rewind's. */
function taskIsolation(manager: WorktreeManager): TaskIsolation {
  return {
    prepare: (c, from) => manager.prepare(c, from),
    finish: (c, taskId, state) => manager.finish(c, taskId, state),
    head: (c) => headOf(manager.cwdOf(c)),
    rewind: (c, commit, taskId) =>
      manager.serial(async () => {
        const kept = keptBranch(manager.branchOf(c), taskId);
        const rewound = await rewindWorktree(manager.cwdOf(c), commit, kept, taskId);
        await manager.publishIfAsked(c);
        return rewound;
      }),
    diffTo: (c, commit) => manager.serial(() => diffTo(manager.cwdOf(c), commit)),
  };
}

/**
 * The wiring of `claude.isolation: "worktree"` (`src/workspace/worktrees/`): the manager opened
 * from the config, what the tasks get (`TaskEnvironment.isolation`), where each conversation's
 * process runs, and the retention of worktrees. Kept out of `agent.ts`, which only calls it.
 */
export interface WorktreeIsolation {
  readonly task: NonNullable<TaskEnvironment["isolation"]>;
  /** The folder a conversation's Claude Code process runs in (its transcripts lie under it). */
  cwdOf(key: string): string;
  /** Where spare processes run: the spare worktree, once built (`sessions.spares`). */
  readonly spareSite: SpareSite;
  /** Calls `ready` each time a spare worktree is built. */
  onSpareReady(ready: () => void): void;
  /** The repositories found damaged while serving (`/healthz`). */
  damage(): readonly GitDamage[];
  /** Stops the retention timer; resolves when the commits under way are made. */
  close(): Promise<void>;
}

/**
 * What the server itself writes in a workspace, relative to it (a trailing `*`: the file and
 * its siblings, its temporary and `-wal` files; a trailing `/`: a folder). Kept in the workspace
 * (a restarted server finds its store and sessions there, and the pid file names the processes
 * of THIS workspace) and excluded through `.git/info/exclude`, local to the clone, rather than
 * moved out of the tree: a `.gitignore` would be a change of the repository itself.
 */
export function serverPaths(config: Config): string[] {
  const store = config.store;
  return [
    `${INBOX_DIR}/`,
    `${SESSIONS_FILE}*`,
    `${SESSIONS_DB_FILE}*`,
    `${PIDS_FILE}*`,
    `${CONFIG_SEEN_FILE}*`,
    ...(store.type === "sqlite" ? [`${store.path}*`] : []),
  ];
}

/**
 * With `claude.isolation: "shared"`, adds the server's files to the repository's exclude file
 * (when the workspace is a git checkout) and returns undefined. With "worktree", checks the
 * workspace (a `WorktreeSetupError` names it when it is not a git repository with a commit, or
 * git is missing) and starts the worktrees' retention (`store.retainDays`).
 */
export async function openWorktreeIsolation(
  config: Config,
  logger: Logger,
): Promise<WorktreeIsolation | undefined> {
  await warnOfIncludes(config.claude.cwd, logger);
  if (config.claude.isolation !== "worktree") {
    // Shared: the checkout's `git status` must not show the server's files either.
    await excludeServerFiles(config.claude.cwd, serverPaths(config)).catch((err: unknown) => {
      logger.warn({ err }, "could not add the server's files to the repository's exclude file");
    });
    return undefined;
  }
  const store = config.store;
  const manager = await WorktreeManager.open({
    cwd: config.claude.cwd,
    dir: config.claude.worktreeDir,
    // What the server itself writes in the workspace: neither the checkout's `git status` nor
    // a task's commit (the inbox is written in the worktree) may show it.
    serverPaths: serverPaths(config),
    logger: logger.child({ component: "worktrees" }),
    // The anonymous caller is a server's only caller when it has no authentication: its
    // branches go to the workspace's repository at once, as the operator's own work.
    publishes: (c) => parseConversationKey(c.key)?.owner === ANONYMOUS_OWNER,
  });
  const stop = manager.scheduleRetention(store.type === "memory" ? 0 : store.retainDays);
  const refOf = (key: string): ConversationRef => ({
    key,
    contextId: parseConversationKey(key)?.contextId ?? key,
  });
  return {
    task: { worktrees: taskIsolation(manager), maxDiffBytes: config.artifacts.maxFileBytes },
    cwdOf: (key) => manager.cwdOf(refOf(key)),
    spareSite: { current: () => manager.spareCwd() },
    onSpareReady: (ready) => manager.spare.onReady(ready),
    damage: () => manager.damage.list(),
    close: async () => {
      stop();
      await manager.close();
    },
  };
}

/**
 * The server's git follows the includes of the repository's config (git cannot be told not
 * to): the drivers an included file names are neutralized like any other, but a file a
 * sandboxed command can write could set keys the server does not override. Warned once at
 * startup, naming the files (docs/sandbox.md).
 */
async function warnOfIncludes(cwd: string, logger: Logger): Promise<void> {
  const files = await configIncludes(cwd);
  if (files.length === 0) return;
  logger.warn(
    { includes: files },
    "the repository's git config includes other files: the server's git reads them too; keep them out of every sandbox's write roots",
  );
}
