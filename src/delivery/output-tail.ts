/** How much of a check's output is kept: its last lines, within a byte cap. */
export const TAIL_LINES = 40;
export const TAIL_CHARS = 4000;

/**
 * The last `lines` lines of `output` (a trailing newline does not count), cut to its last
 * `chars` characters, with a marker when anything was left out. Pure.
 */
export function outputTail(output: string, lines = TAIL_LINES, chars = TAIL_CHARS): string {
  const trimmed = output.replace(/\n+$/, "");
  const all = trimmed.split("\n");
  let tail = all.slice(-lines).join("\n");
  let cut = all.length > lines;
  if (tail.length > chars) {
    tail = tail.slice(-chars);
    cut = true;
  }
  return cut ? `…\n${tail}` : tail;
}
