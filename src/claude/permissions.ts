import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import type { SessionCore } from "./core.js";

/** The SDK's permission options, plus the run that made the tool call (undefined: unknown). */
export type AttributedPermissionOptions = Parameters<CanUseTool>[2] & {
  readonly runId: string | undefined;
};

/** `canUseTool` as the session calls it: told which run asks, so the caller routes by run. */
export type SessionCanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: AttributedPermissionOptions,
) => ReturnType<CanUseTool>;

/**
 * Wraps the caller's handler so the session knows a question is open: while any is pending the
 * status is `permission`, which is what lets `waitForFinish` hand control back to the caller.
 * Each request is attributed to the run whose tool call it is, by tool use id.
 */
export function trackPermissions(
  core: SessionCore,
  handler: SessionCanUseTool,
  newId: () => string,
): CanUseTool {
  return async (toolName, input, opts) => {
    const requestId = opts.requestId || newId();
    // The tool_use frame precedes the request on the runtime's stdout, but the pump may not have
    // handled it yet (the SDK serves control requests ahead of its message queue): wait for it.
    const runId =
      core.owners.runForToolUse(opts.toolUseID) ??
      (await core.owners.whenToolUse(opts.toolUseID, opts.signal));
    const attribution = runId === undefined ? {} : { runId };
    core.permissionAsked();
    core.emitter.emit({
      type: "permission_requested",
      requestId,
      toolName,
      toolUseId: opts.toolUseID,
      ...attribution,
    });
    core.refreshStatus();
    try {
      return await handler(toolName, input, { ...opts, runId });
    } finally {
      core.permissionSettled();
      core.emitter.emit({ type: "permission_resolved", requestId, ...attribution });
      core.refreshStatus();
    }
  };
}
