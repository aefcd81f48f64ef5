import { isAbsolute, join, resolve } from "node:path";
import type { Settings, SandboxSettings, SettingSource } from "@anthropic-ai/claude-agent-sdk";
import { within } from "../common/safe-files.js";

/**
 * The boundary a sandbox that is on draws around every Claude Code process of a workspace, beyond
 * what the sandbox settings alone do (docs/sandbox.md, "Threat model"). Pure: the workspace's
 * startup computes it once, the session factory applies it to each process.
 *
 * The threat is an authenticated caller, or a prompt injection through any text Claude reads. So
 * nothing a conversation can write is loaded as runtime settings (they run hooks and MCP servers
 * outside the sandbox), no secret is in the environment or the files commands and file tools can
 * read, and the file tools stay in the conversation's roots with no prompt that could widen them.
 */

/** What the boundary of one workspace is drawn from, all paths absolute. */
export interface BoundaryContext {
  /** Whether the workspace's sandbox is the `"strict"` preset (HOME's reads are refused). */
  readonly strict: boolean;
  /** The child's HOME (the runtime spells it `~`). */
  readonly home: string;
  /** The runtime's config directory: credentials, transcripts, settings. */
  readonly configDir: string;
  /** Where the conversations' processes work: the workspace, and its worktrees' folder. */
  readonly roots: readonly string[];
  /** Under HOME, what sandboxed commands may still read under `"strict"` (absolute). */
  readonly homeReadable: readonly string[];
  /** The names of the child's environment variables. */
  readonly envNames: readonly string[];
}

/** What tools need from HOME, readable under `"strict"`: the git identity and its config. */
export const HOME_READABLE = ["~/.gitconfig", "~/.config/git"] as const;

/** `~/x` against `home`; an absolute path as it is; anything else against `home` too. */
export const expandHome = (path: string, home: string): string =>
  path === "~"
    ? home
    : path.startsWith("~/")
      ? join(home, path.slice(2))
      : isAbsolute(path)
        ? path
        : resolve(home, path);

/**
 * Variables sandboxed commands keep: what a shell and its tools need, none a secret. Every other
 * variable of the child's environment (the API key, the server's own) is unset for them by the
 * runtime's `sandbox.credentials.envVars` deny. Not the runtime's CLAUDE_CODE_SUBPROCESS_ENV_SCRUB:
 * checked on 0.3.332, it also turns on a stricter command parser that asks about ordinary
 * commands (`echo a > f && echo b`), so every command of a strict task would wait for a prompt.
 */
const COMMAND_VARIABLES = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "PWD",
  "TMPDIR",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "CI",
  "EDITOR",
  "PAGER",
]);
const commandVariable = (name: string): boolean =>
  COMMAND_VARIABLES.has(name) || name.startsWith("LC_");

/** The variables unset for sandboxed commands: every one the child has that is not plain. */
export const deniedVariables = (envNames: readonly string[]): string[] =>
  [...new Set(envNames)].filter((n) => !commandVariable(n)).sort();

/**
 * `settings` with the boundary's denials added: the runtime's config directory unreadable and
 * unwritable, HOME unreadable under `"strict"` but for `homeReadable` and the roots inside it, and
 * every non-plain variable unset for commands. Lists are added to, never replaced.
 */
export function boundarySandbox(settings: SandboxSettings, ctx: BoundaryContext): SandboxSettings {
  const fs = settings.filesystem ?? {};
  const home = ctx.strict ? ["~"] : [];
  const insideHome = ctx.strict
    ? [
        ...HOME_READABLE,
        ...ctx.homeReadable,
        ...ctx.roots.filter((r) => within(ctx.home, r)),
      ].filter((p) => !within(ctx.configDir, expandHome(p, ctx.home)))
    : [];
  const envVars = deniedVariables(ctx.envNames).map((name) => ({ name, mode: "deny" as const }));
  return {
    ...settings,
    filesystem: {
      ...fs,
      denyRead: unique([...(fs.denyRead ?? []), ...home, ctx.configDir]),
      denyWrite: unique([...(fs.denyWrite ?? []), ctx.configDir]),
      ...(insideHome.length > 0 && { allowRead: unique([...(fs.allowRead ?? []), ...insideHome]) }),
    },
    ...(envVars.length > 0 && {
      credentials: {
        ...settings.credentials,
        envVars: [...(settings.credentials?.envVars ?? []), ...envVars],
      },
    }),
  };
}

/**
 * The runtime's own settings of a process under the boundary (its `--settings` tier, which no
 * project file overrides): file-tool reads and writes outside the working directories refused in
 * every permission mode (no prompt to widen them), and the server's files inside them counted as
 * outside. The server's PreToolUse guard refuses first, with a reason; these hold if it misses.
 */
export function boundaryRuntimeSettings(protectedPaths: readonly string[]): Settings {
  return {
    permissions: {
      blockReadsOutsideWorkingDirectories: true,
      blockWritesOutsideWorkingDirectories: true,
      workingDirectoriesExclude: [...protectedPaths],
    },
  };
}

/**
 * The setting sources a process under the boundary reads: the project's and the local ones are
 * files a conversation can write (`.claude/settings*.json`, whose hooks, MCP servers and plugins
 * would run outside the sandbox), so only the operator's user settings are kept.
 */
export const boundarySettingSources = (sources: readonly SettingSource[]): SettingSource[] =>
  sources.filter((s) => s !== "project" && s !== "local");

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];
