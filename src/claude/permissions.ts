import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import type { SessionCore } from "./core.js";

/**
 * Wraps the caller's handler so the session knows a question is open: while any is pending the
 * status is `permission`, which is what lets `waitForFinish` hand control back to the caller.
 */
export function trackPermissions(
  core: SessionCore,
  handler: CanUseTool,
  newId: () => string,
): CanUseTool {
  return async (toolName, input, opts) => {
    const requestId = opts.requestId || newId();
    // The tool_use frame precedes the permission request, so its run is usually known.
    const runId = core.owners.runForToolUse(opts.toolUseID);
    const attribution = runId === undefined ? {} : { runId };
    core.permissionsPending++;
    core.emitter.emit({
      type: "permission_requested",
      requestId,
      toolName,
      toolUseId: opts.toolUseID,
      ...attribution,
    });
    core.refreshStatus();
    try {
      return await handler(toolName, input, opts);
    } finally {
      core.permissionsPending--;
      core.emitter.emit({ type: "permission_resolved", requestId, ...attribution });
      core.refreshStatus();
    }
  };
}
