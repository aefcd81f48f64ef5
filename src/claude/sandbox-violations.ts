/**
 * What the runtime says of a command its sandbox refused (checked on 0.3.332): the `user` frame
 * of the tool result carries `tool_result_meta: [{ id, remedy: { kind: "sandbox_violation" } }]`
 * for that tool use, and the result text ends with a block
 * `<sandbox_violations>\ndeny network-outbound example.com:80 (host is not on the allow list)\n
 * </sandbox_violations>`, one line per refused operation. On Linux only the network proxy reports
 * so; a write bubblewrap keeps read-only shows only as the command's own error ("Read-only file
 * system"), with no marker. Pure.
 */

export interface SandboxViolation {
  /** The refused operation, e.g. `network-outbound` (no command argument). */
  readonly operation: string;
  /** The whole line as the runtime wrote it (its target, e.g. a host and port, included). */
  readonly line: string;
  /**
   * Why, when the server's own guard refused the call before it ran (`outside-roots`,
   * `server-file`, …: src/sandbox/file-guard.ts); absent: the OS sandbox refused a command.
   */
  readonly kind?: string;
}

const BLOCK = /<sandbox_violations>\n?([\s\S]*?)<\/sandbox_violations>/g;

/** The tool use ids the frame's `tool_result_meta` marks as sandbox violations. */
export function violationIds(meta: unknown): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(meta)) return ids;
  for (const entry of meta as unknown[]) {
    if (typeof entry !== "object" || entry === null) continue;
    const { id, remedy } = entry as { id?: unknown; remedy?: { kind?: unknown } };
    if (typeof id === "string" && remedy?.kind === "sandbox_violation") ids.add(id);
  }
  return ids;
}

/** The violation lines of a tool result's text; one placeholder line when it has none. */
export function violationsOf(text: string): SandboxViolation[] {
  const lines = [...text.matchAll(BLOCK)].flatMap((m) =>
    (m[1] ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== ""),
  );
  if (lines.length === 0) return [{ operation: "unknown", line: "refused by the sandbox" }];
  return lines.map((line) => ({ operation: /^deny\s+(\S+)/.exec(line)?.[1] ?? "unknown", line }));
}
