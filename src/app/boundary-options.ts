import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { HookCallbackMatcher, Options } from "@anthropic-ai/claude-agent-sdk";
import {
  DEFAULT_SETTING_SOURCES,
  type ClaudeSession,
  type ClaudeSessionOptions,
  type SandboxViolation,
} from "../claude/index.js";
import { boundaryRuntimeSettings, boundarySettingSources } from "../sandbox/boundary.js";
import { GUARD_MATCHER, wideningRequest, type Refusal } from "../sandbox/file-guard.js";
import { guardHook } from "../sandbox/guard-hook.js";
import type { WorkspaceBoundary } from "../sandbox/workspace-boundary.js";

/**
 * `dir`, made if missing, and only if it is a folder of this user's that others cannot enter: in
 * a shared /tmp another user could have made it first, or put a link in its place.
 */
function ownedDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const s = lstatSync(dir);
  const uid = process.getuid?.();
  if (!s.isDirectory() || (uid !== undefined && s.uid !== uid) || (s.mode & 0o077) !== 0) {
    throw new Error(
      `${dir} is not a private folder of this user's: the processes' temp dirs need one`,
    );
  }
  return dir;
}

type Refusals = Pick<ClaudeSession, "recordRefusal">;

/** A process's part of the boundary: its options, its guard, its temp dir (gone at close). */
export interface ProcessBoundary {
  readonly options: Partial<ClaudeSessionOptions>;
  /** `CLAUDE_CODE_TMPDIR` of this process alone. */
  readonly tmp: string;
  /** The PreToolUse guard of its file tools and WebFetch. */
  readonly guard: HookCallbackMatcher;
  /**
   * A permission request that would widen the sandbox (a command leaving it, a host it does not
   * allow), refused and reported: never asked of the caller. Undefined: not one.
   */
  refuseWidening(
    toolName: string,
    input: Record<string, unknown>,
    toolUseId: string,
  ): { behavior: "deny"; message: string } | undefined;
  readonly cleanup: () => void;
}

/**
 * What the boundary changes in a process's options (docs/sandbox.md, "Threat model"): the
 * project's setting files and `.mcp.json` not loaded, the runtime's own refusal of file-tool calls
 * outside the working directories, and a temp dir of its own that no other process's commands
 * can read (its sandbox denies the others', and under worktree isolation the other worktrees).
 */
export function processBoundary(
  b: WorkspaceBoundary,
  o: {
    settingSources: ClaudeSessionOptions["settingSources"];
    cwd: string;
    sdkOptions: Partial<Options>;
    env: Record<string, string | undefined>;
    /** The process's session, once it exists: where refusals are recorded. */
    session: () => Refusals;
    /** Its caller's scope now (a spare has none until a conversation takes it). */
    owner: () => string | undefined;
  },
): ProcessBoundary {
  const tmp = join(ownedDir(b.tmpRoot), randomUUID());
  mkdirSync(tmp, { mode: 0o700 });
  return {
    tmp,
    guard: guardMatcher(b, o.cwd, tmp, o.session, o.owner),
    refuseWidening: (toolName, input, toolUseId) => {
      const widening = wideningRequest(toolName, input);
      if (widening === undefined) return undefined;
      o.session().recordRefusal(toolUseId, violationOf(widening));
      return { behavior: "deny", message: widening.reason };
    },
    cleanup: () => rmSync(tmp, { recursive: true, force: true, maxRetries: 3 }),
    options: {
      env: { ...o.env, CLAUDE_CODE_TMPDIR: tmp },
      // Drawn at spawn: a spare (no caller yet) reads no inbox folder with its commands; its
      // file tools read its caller's once a conversation takes it (the guard asks each call).
      sandbox: b.sandboxFor(o.cwd, tmp, o.owner()),
      settingSources: boundarySettingSources(o.settingSources ?? DEFAULT_SETTING_SOURCES),
      sdkOptions: {
        ...o.sdkOptions,
        // The operator's `claude.mcpServers` only: a project's .mcp.json is a conversation's to write.
        strictMcpConfig: true,
        settings: boundaryRuntimeSettings(b.protectedIn(o.cwd)),
      },
    },
  };
}

/**
 * The PreToolUse guard of a process working in `cwd`: a refused call is reported to its session
 * (a refusal in its stream, log and metric) and denied with its reason.
 */
function guardMatcher(
  b: WorkspaceBoundary,
  cwd: string,
  tmp: string,
  session: () => Refusals,
  owner: () => string | undefined,
): HookCallbackMatcher {
  return {
    matcher: GUARD_MATCHER,
    hooks: [
      guardHook(
        cwd,
        () => b.guardFor(cwd, tmp, owner()),
        (toolUseId, refusal) => session().recordRefusal(toolUseId, violationOf(refusal)),
      ),
    ],
  };
}

/** A refusal as the task's stream, the log and the metric read it (a sandbox violation). */
const violationOf = (refusal: Refusal): SandboxViolation => ({
  operation: refusal.operation,
  kind: refusal.kind,
  line: `deny ${refusal.operation} ${refusal.target} (${refusal.kind})`,
});
