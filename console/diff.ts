/**
 * Line diffs for the file view. Pure: no DOM.
 *
 * A `file` artifact carries a file's whole content after the change, not the change: the page
 * diffs it against the version of the same artifact it saw before (a file written twice in one
 * task), and shows a created file as all added. A `text/x-diff` artifact (a unified diff the
 * server made, e.g. of a worktree's branch) is parsed as it is.
 */

export type DiffLine =
  | { readonly op: "same" | "add" | "del"; readonly text: string }
  | { readonly op: "hunk" | "file"; readonly text: string };

/** Above this many lines on both sides, no LCS (quadratic): the old side out, the new side in. */
const MAX_LCS_CELLS = 4_000_000;

const linesOf = (text: string): string[] => {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
};

/** The lines of `before` and `after`, each kept, removed or added (longest common subsequence). */
export function lineDiff(before: string | undefined, after: string): DiffLine[] {
  const a = before === undefined ? [] : linesOf(before);
  const b = linesOf(after);
  // Common head and tail first: most edits touch a few lines of a long file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const same = (text: string): DiffLine => ({ op: "same", text });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  return [
    ...a.slice(0, head).map(same),
    ...middle(midA, midB),
    ...a.slice(a.length - tail).map(same),
  ];
}

function middle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const del = (text: string): DiffLine => ({ op: "del", text });
  const add = (text: string): DiffLine => ({ op: "add", text });
  if ((a.length + 1) * (b.length + 1) > MAX_LCS_CELLS) return [...a.map(del), ...b.map(add)];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i] ?? "" });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      out.push(del(a[i++] ?? ""));
    } else {
      out.push(add(b[j++] ?? ""));
    }
  }
  while (i < a.length) out.push(del(a[i++] ?? ""));
  while (j < b.length) out.push(add(b[j++] ?? ""));
  return out;
}

/** Keeps `context` unchanged lines around each change; a gap becomes one `hunk` line. */
export function withContext(lines: readonly DiffLine[], context = 3): DiffLine[] {
  const changed = lines.map((l) => l.op !== "same");
  if (!changed.includes(true)) return [...lines];
  const keep = lines.map((_, i) =>
    changed.slice(Math.max(0, i - context), i + context + 1).includes(true),
  );
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, i) => {
    if (keep[i]) {
      if (skipped > 0) out.push({ op: "hunk", text: `… ${skipped} unchanged line(s)` });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0) out.push({ op: "hunk", text: `… ${skipped} unchanged line(s)` });
  return out;
}

/** A unified diff (`git diff` output) read line by line: headers, hunks, added, removed, kept. */
export function parseUnifiedDiff(text: string): DiffLine[] {
  return linesOf(text).map((line): DiffLine => {
    if (/^(diff |index |--- |\+\+\+ |new file|deleted file|similarity|rename )/.test(line)) {
      return { op: "file", text: line };
    }
    if (line.startsWith("@@")) return { op: "hunk", text: line };
    if (line.startsWith("+")) return { op: "add", text: line.slice(1) };
    if (line.startsWith("-")) return { op: "del", text: line.slice(1) };
    return { op: "same", text: line.startsWith(" ") ? line.slice(1) : line };
  });
}

/** Lines added and removed, for a file's one-line summary. */
export function diffStat(lines: readonly DiffLine[]): { added: number; removed: number } {
  return {
    added: lines.filter((l) => l.op === "add").length,
    removed: lines.filter((l) => l.op === "del").length,
  };
}
