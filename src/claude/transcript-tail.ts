/**
 * Reads a transcript from its end, a window at a time, handing each whole line that mentions a
 * marker to a parser until one is taken: the last record of a kind without parsing the lines
 * before it. A resume needs only the last `cost-state`, which a clean exit writes at the end, so
 * this reads a few KB where a full parse read the whole conversation.
 */
import { open } from "node:fs/promises";

/** Bytes read per step back; a cost-state line is well under it. */
export const TAIL_WINDOW = 64 * 1024;

/**
 * How far back a search goes: a clean exit writes its record last, so it is found in the first
 * window; a file without one in its last 2 MB (its process was killed, then many turns followed)
 * is not read further, so a long conversation never costs a read of the whole file.
 */
export const TAIL_LIMIT = 2 * 1024 * 1024;

/**
 * The first value `take` returns for a line containing `marker`, scanning lines last to first
 * over the file's last `limit` bytes; undefined when no line there gives one or the file cannot
 * be read. Lines without the marker are not parsed.
 */
export async function lastLineMatching<T>(
  path: string,
  marker: string,
  take: (line: string) => T | undefined,
  window = TAIL_WINDOW,
  limit = TAIL_LIMIT,
): Promise<T | undefined> {
  let file;
  try {
    file = await open(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = (await file.stat()).size;
    const floor = Math.max(0, size - limit);
    let end = size;
    // The end of a line the last window cut at its start: completed by the next window back.
    let carry = Buffer.alloc(0);
    while (end > floor) {
      const start = Math.max(floor, end - window);
      const chunk = Buffer.alloc(end - start);
      await file.read(chunk, 0, chunk.length, start);
      const buf = Buffer.concat([chunk, carry]);
      // A line may straddle the window's start: keep its part for the next step back.
      const firstNewline = start === 0 ? -1 : buf.indexOf(0x0a);
      if (firstNewline < 0 && start > 0) {
        carry = buf;
        end = start;
        continue;
      }
      const found = scanLines(buf.subarray(firstNewline + 1).toString("utf8"), marker, take);
      if (found !== undefined) return found;
      carry = buf.subarray(0, firstNewline + 1);
      end = start;
    }
    return undefined;
  } finally {
    await file.close();
  }
}

function scanLines<T>(
  text: string,
  marker: string,
  take: (line: string) => T | undefined,
): T | undefined {
  // `before`: where the part still to scan ends (the start of the line scanned last).
  for (let before = text.length; before > 0;) {
    const at = text.lastIndexOf(marker, before - 1);
    if (at < 0) return undefined;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const newline = text.indexOf("\n", at);
    const lineEnd = newline < 0 || newline > before ? before : newline;
    const value = take(text.slice(lineStart, lineEnd));
    if (value !== undefined) return value;
    before = lineStart;
  }
  return undefined;
}
