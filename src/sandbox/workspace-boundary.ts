import { homedir, tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { within } from "../common/safe-files.js";
import type { Config } from "../config/schema.js";
import { boundarySandbox, expandHome, HOME_READABLE, type BoundaryContext } from "./boundary.js";
import type { GuardContext, ProtectedPath } from "./file-guard.js";
import { callerInbox, INBOX_DIR } from "../workspace/inbox.js";
import { sandboxOn } from "./preset.js";

type Env = Record<string, string | undefined>;

/**
 * A workspace's boundary as its processes get it (docs/sandbox.md, "Threat model"): present
 * whenever its sandbox is on. Pure: from the config, the sandbox settings and the child's
 * environment.
 */
export interface WorkspaceBoundary {
  /** The sandbox settings with the boundary's denials (config dir, HOME, variables). */
  readonly sandbox: SandboxSettings;
  /** What sandboxed commands may read under HOME (`--check` prints it); empty: HOME is open. */
  readonly homeReadable: readonly string[];
  /**
   * Where each process gets a temp dir of its own (`CLAUDE_CODE_TMPDIR`: its background commands'
   * output, its scratch files): no process's commands can read or write another's.
   */
  readonly tmpRoot: string;
  /**
   * The sandbox of a process working in `cwd` with the temp dir `tmp`, for the caller `owner`
   * (undefined: a spare, no caller yet): the other processes' temp dirs unreadable; under
   * worktree isolation the other conversations' worktrees too; under shared isolation the other
   * callers' inbox folders.
   */
  sandboxFor(cwd: string, tmp: string, owner?: string): SandboxSettings;
  /** The file guard of a process working in `cwd` with the temp dir `tmp`, for `owner`. */
  guardFor(cwd: string, tmp: string, owner?: string): GuardContext;
  /** What the runtime itself counts as outside the working directories (`cwd`'s process). */
  protectedIn(cwd: string): string[];
}

/** The runtime's config directory as the child's environment names it. */
export const runtimeConfigDir = (env: Env): string =>
  env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), ".claude");

/** Where the processes' own temp dirs go: under the runtime's temp dir as the child's env says. */
const tmpRootOf = (env: Env): string =>
  join(
    env.CLAUDE_CODE_TMPDIR ?? env.TMPDIR ?? tmpdir(),
    `claude-a2a-processes-${process.getuid?.() ?? 0}`,
  );

/**
 * The conversation's folder in the worktrees folder `worktrees` that `cwd` is in (a workspace
 * that is a subfolder of its repository runs deeper): where its repository's `.git` is.
 * Undefined when `cwd` is not in it. Pure.
 */
export function conversationFolder(worktrees: string, cwd: string): string | undefined {
  if (!within(worktrees, cwd) || cwd === worktrees) return undefined;
  const [first = ""] = relative(worktrees, cwd).split(sep);
  return join(worktrees, first);
}

/** Files of a working directory that the runtime would load as settings (hooks, MCP servers). */
const RUNTIME_SETTINGS = [".claude/settings.json", ".claude/settings.local.json", ".mcp.json"];

export function workspaceBoundary(
  config: Config,
  settings: SandboxSettings | undefined,
  o: {
    serverFiles: readonly string[];
    gitMetadata?: readonly string[];
    env: Env;
    strict: boolean;
  },
): WorkspaceBoundary | undefined {
  if (settings === undefined || !sandboxOn(settings)) return undefined;
  const { claude } = config;
  const home = o.env.HOME ?? homedir();
  const configDir = runtimeConfigDir(o.env);
  const extraDirs = (claude.additionalDirectories ?? []).map((d) => resolve(claude.cwd, d));
  const input = claude.sandbox;
  const operatorHome = typeof input === "object" ? (input.homeReadable ?? []) : [];
  const ctx: BoundaryContext = {
    strict: o.strict,
    home,
    configDir,
    roots: [claude.cwd, resolve(claude.cwd, claude.worktreeDir), ...extraDirs],
    homeReadable: operatorHome,
    envNames: Object.keys(o.env),
  };
  const sandbox = boundarySandbox(settings, ctx);
  const serverFiles: ProtectedPath[] = o.serverFiles.map((path) => ({
    path,
    kind: "server-file",
    access: "all",
  }));
  const worktreesDir = resolve(claude.cwd, claude.worktreeDir);
  const ownGit = (cwd: string): string[] => {
    const own = claude.isolation === "worktree" ? conversationFolder(worktreesDir, cwd) : undefined;
    return own === undefined || own === cwd ? [] : [join(own, ".git")];
  };
  const protectedIn = (cwd: string): ProtectedPath[] => [
    ...serverFiles,
    { path: configDir, kind: "runtime-state", access: "all" },
    ...RUNTIME_SETTINGS.map((f) => ({
      path: join(cwd, f),
      kind: "runtime-settings" as const,
      access: "write" as const,
    })),
    ...[join(cwd, ".git"), ...ownGit(cwd), ...(o.gitMetadata ?? [])].map((path) => ({
      path,
      kind: "git-metadata" as const,
      access: "write" as const,
    })),
  ];
  const tmpRoot = tmpRootOf(o.env);
  // Shared isolation: one inbox for every caller, each caller's attachments in a folder of its
  // own (worktree isolation: the inbox is in the conversation's own worktree).
  const inboxOf = (cwd: string, owner: string | undefined) =>
    claude.isolation === "shared"
      ? {
          denied: [join(cwd, INBOX_DIR)],
          own: owner === undefined ? [] : [join(cwd, callerInbox(owner))],
        }
      : { denied: [], own: [] };
  const worktrees =
    claude.isolation === "worktree" ? resolve(claude.cwd, claude.worktreeDir) : undefined;
  return {
    sandbox,
    tmpRoot,
    sandboxFor: (cwd, tmp, owner) => {
      const fs = sandbox.filesystem ?? {};
      const own = worktrees === undefined ? undefined : conversationFolder(worktrees, cwd);
      const apart = worktrees === undefined || own === undefined ? [] : [worktrees];
      const mine = own === undefined ? [] : [own];
      const inbox = inboxOf(cwd, owner);
      return {
        ...sandbox,
        filesystem: {
          ...fs,
          // The other conversations' folders and repositories, the other callers' inboxes:
          // unreadable. (The runtime's cwd allowance comes after, the caller's own inbox last.)
          denyRead: [...(fs.denyRead ?? []), tmpRoot, ...apart, ...inbox.denied],
          allowRead: [...(fs.allowRead ?? []), tmp, cwd, ...mine, ...inbox.own],
          // Its own repository: read (git log, status), never written (only the server commits).
          denyWrite: [...(fs.denyWrite ?? []), ...mine.map((f) => join(f, ".git"))],
        },
      };
    },
    homeReadable: o.strict
      ? [...HOME_READABLE, ...operatorHome].map((p) => expandHome(p, home))
      : [],
    guardFor: (cwd, tmp, owner) => {
      const inbox = inboxOf(cwd, owner);
      return {
        roots: [cwd, ...extraDirs],
        runtimeFiles: [tmp, join(configDir, "plans")],
        own: inbox.own,
        protected: [
          ...protectedIn(cwd),
          ...inbox.denied.map((path) => ({
            path,
            kind: "other-caller" as const,
            access: "all" as const,
          })),
        ],
        allowedDomains: settings.network?.allowedDomains ?? [],
      };
    },
    // The runtime's exclusion refuses reads too: only what is neither read nor written.
    protectedIn: (cwd) =>
      protectedIn(cwd)
        .filter((p) => p.access === "all")
        .map((p) => p.path),
  };
}
