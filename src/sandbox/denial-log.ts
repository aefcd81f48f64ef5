import type { Logger } from "pino";
import type { SessionEvent } from "../claude/index.js";
import type { RefusedFileError } from "../common/safe-files.js";

/**
 * One warn line per command the runtime marked refused by its sandbox, or tool call the server's
 * guard refused (with its `kind`): the tool use id and the refused operations
 * (`network-outbound`, `file-read`, …), never the command, its arguments or the path (they may
 * hold a secret or a caller's data). `conversation`: the session's key.
 */
export function logSandboxDenials(logger: Logger, conversation: string, event: SessionEvent): void {
  if (event.type !== "run_event" && event.type !== "metadata") return;
  const e = event.event;
  if (e.kind !== "user") return;
  for (const result of e.toolResults) {
    if (result.sandbox === undefined) continue;
    const kind = result.sandbox[0]?.kind;
    logger.warn(
      {
        conversation,
        ...(event.type === "run_event" && { runId: event.runId }),
        toolUseId: result.toolUseId,
        operations: [...new Set(result.sandbox.map((v) => v.operation))],
        ...(kind !== undefined && { kind }),
      },
      kind === undefined ? "sandbox refused a command" : "the server refused a tool call",
    );
  }
}

export const FILE_REFUSED = "refused a file that is not a regular file inside the workspace";

/**
 * One warn line per file the server refused to read or write in a workspace (a Write swapped
 * for a link, a link planted where the inbox goes): why (`kind`) and its workspace-relative
 * path, never its contents.
 */
export function logFileRefusal(logger: Logger, refusal: RefusedFileError): void {
  logger.warn({ kind: refusal.kind, path: refusal.path }, FILE_REFUSED);
}
