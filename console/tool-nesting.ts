/**
 * Which tool calls run inside which: a subagent's calls (their `tool_use` carries
 * `parentToolUseId`, docs/protocol.md "Tool calls") go under the `Task`/`Agent` call that ran
 * them, in the order they came. A call whose parent the page never saw (or saw only after it)
 * stays in the timeline itself, so nothing is hidden. Pure: no DOM.
 */
import type { Entry } from "./task-model.js";

export type ToolCall = Extract<Entry, { type: "tool" }>;

export interface Nesting {
  /** The calls made inside each call, by its `toolUseId`. */
  readonly children: ReadonlyMap<string, readonly ToolCall[]>;
  /** The calls shown under another one (not in the timeline itself). */
  readonly nested: ReadonlySet<string>;
}

export function nestTools(entries: readonly Entry[]): Nesting {
  // A parent comes before its calls: only one seen earlier counts, so no call can end up under
  // itself (a cycle would hide both).
  const seen = new Set<string>();
  const children = new Map<string, ToolCall[]>();
  const nested = new Set<string>();
  for (const e of entries) {
    if (e.type !== "tool") continue;
    const parent = e.parent;
    seen.add(e.toolUseId);
    if (parent === undefined || parent === e.toolUseId || !seen.has(parent)) continue;
    nested.add(e.toolUseId);
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [e]);
    else list.push(e);
  }
  return { children, nested };
}
