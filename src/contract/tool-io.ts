/**
 * What a tool call shows a client beside its name (docs/protocol.md "Tool calls"): its input on
 * the `tool_use` status (`toolInput`) and its output on the `tool_result` status that follows the
 * call (`output`), each capped at `artifacts.maxToolOutputBytes` so one `cat` of a big file cannot
 * swell every stream and push notification. Pure, no imports: the console and the terminal
 * client read the same keys.
 */

/** `artifacts.maxToolOutputBytes`' default: enough for a test run's tail, small for a stream. */
export const DEFAULT_TOOL_OUTPUT_BYTES = 16_384;

/** The message metadata keys of tool input and output. */
export const TOOL_IO_KEYS = {
  input: "toolInput",
  /** Set (true) when a string of the input was cut to the cap. */
  inputTruncated: "toolInputTruncated",
  output: "output",
  /** The output's whole size in bytes (UTF-8), before the cap. */
  outputBytes: "outputBytes",
  truncated: "truncated",
  isError: "isError",
  /**
   * On a subagent's call (one a `Task`/`Agent` call runs): the `toolUseId` of that call, so a
   * client can show the subagent's calls nested under it. Unset on the main thread's calls.
   */
  parent: "parentToolUseId",
} as const;

const encoder = new TextEncoder();

/** `text` cut to at most `maxBytes` UTF-8 bytes (on a character boundary). */
export function capText(
  text: string,
  maxBytes: number,
): { text: string; bytes: number; truncated: boolean } {
  const bytes = encoder.encode(text).length;
  if (bytes <= maxBytes) return { text, bytes, truncated: false };
  let cut = Math.min(text.length, maxBytes);
  while (cut > 0 && encoder.encode(text.slice(0, cut)).length > maxBytes) {
    cut = Math.floor(cut * 0.9);
  }
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return { text: text.slice(0, cut), bytes, truncated: true };
}

/**
 * The input as the status carries it: each string value over the cap (a `Write`'s content) cut
 * to it, so the paths, commands and patterns a reader looks for always stay whole.
 */
export function capInput(input: unknown, maxBytes: number): { input: unknown; truncated: boolean } {
  let truncated = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      const c = capText(v, maxBytes);
      truncated ||= c.truncated;
      return c.text;
    }
    if (depth > 8 || typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  return { input: walk(input, 0), truncated };
}
