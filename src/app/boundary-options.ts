import type { HookCallbackMatcher, Options } from "@anthropic-ai/claude-agent-sdk";
import type { ClaudeSession, ClaudeSessionOptions, SandboxViolation } from "../claude/index.js";
import { DEFAULT_SETTING_SOURCES } from "../claude/options.js";
import { boundaryRuntimeSettings, boundarySettingSources } from "../sandbox/boundary.js";
import { GUARD_MATCHER, type Refusal } from "../sandbox/file-guard.js";
import { guardHook } from "../sandbox/guard-hook.js";
import type { WorkspaceBoundary } from "../sandbox/workspace-boundary.js";

/**
 * What the boundary changes in a process's options (docs/sandbox.md, "Threat model"): the
 * project's setting files and `.mcp.json` not loaded, the runtime's own refusal of file-tool calls
 * outside the working directories. (Its commands' environment is in the sandbox settings.)
 */
export function boundaryOptions(
  b: WorkspaceBoundary | undefined,
  settingSources: ClaudeSessionOptions["settingSources"],
  cwd: string,
  sdkOptions: Partial<Options>,
): Partial<ClaudeSessionOptions> {
  if (b === undefined) return {};
  return {
    settingSources: boundarySettingSources(settingSources ?? DEFAULT_SETTING_SOURCES),
    sdkOptions: {
      ...sdkOptions,
      // The operator's `claude.mcpServers` only: a project's .mcp.json is a conversation's to write.
      strictMcpConfig: true,
      settings: boundaryRuntimeSettings(b.protectedIn(cwd)),
    },
  };
}

/**
 * The PreToolUse guard of a process working in `cwd`: a refused call is reported to its session
 * (a refusal in its stream, log and metric) and denied with its reason.
 */
export function guardMatcher(
  b: WorkspaceBoundary,
  cwd: string,
  session: () => ClaudeSession,
): HookCallbackMatcher {
  return {
    matcher: GUARD_MATCHER,
    hooks: [
      guardHook(cwd, b.guardFor(cwd), (toolUseId, refusal) =>
        session().recordRefusal(toolUseId, violationOf(refusal)),
      ),
    ],
  };
}

/** A refusal as the task's stream, the log and the metric read it (a sandbox violation). */
export const violationOf = (refusal: Refusal): SandboxViolation => ({
  operation: refusal.operation,
  kind: refusal.kind,
  line: `deny ${refusal.operation} ${refusal.target} (${refusal.kind})`,
});
