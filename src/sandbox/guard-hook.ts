import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { HookCallback } from "@anthropic-ai/claude-agent-sdk";
import { judgeFetch, judgePath, targetsOf, type GuardContext, type Refusal } from "./file-guard.js";

/**
 * Where `path` really is: the real path of its nearest existing ancestor, with the rest appended
 * (a file about to be written does not exist yet). A link anywhere on the way is followed, so the
 * guard judges where a call would land, not how it is spelled.
 */
export async function realTarget(path: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return path;
      rest.push(basename(at));
      at = up;
    }
  }
}

/** The first refusal of a call's targets, each judged as written and where it really lands. */
export async function judgeCall(
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
  ctx: GuardContext,
): Promise<Refusal | undefined> {
  for (const target of targetsOf(toolName, input, cwd)) {
    if (target.type === "url") {
      const refused = judgeFetch(target.url, ctx);
      if (refused !== undefined) return refused;
      continue;
    }
    const refused =
      judgePath(target.path, target.operation, ctx) ??
      judgePath(await realTarget(target.path), target.operation, ctx);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/**
 * The PreToolUse hook of a process under the boundary: a refused call is denied with its reason
 * (what Claude reads as the tool's result) before any permission rule or prompt, and reported
 * (`onRefusal`) so the task's stream, the log and the metric say so.
 */
export function guardHook(
  cwd: string,
  /** The context now: a spare process learns its caller when a conversation takes it. */
  ctx: () => GuardContext,
  onRefusal: (toolUseId: string, refusal: Refusal) => void,
): HookCallback {
  return async (input, toolUseId) => {
    if (input.hook_event_name !== "PreToolUse") return {};
    const toolInput = (input.tool_input ?? {}) as Record<string, unknown>;
    const refusal = await judgeCall(input.tool_name, toolInput, cwd, ctx());
    if (refusal === undefined) return {};
    onRefusal(toolUseId ?? input.tool_use_id, refusal);
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: refusal.reason,
      },
    };
  };
}
