/**
 * "Did you mean send?" for a mistyped command. Kept free of imports: `cli.ts` asks it before
 * loading either side.
 */

/** Edits between two words: insertions, deletions, substitutions, adjacent swaps. Pure. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The command `word` most likely meant: the nearest of `commands` within one edit (two for a
 * word of five letters or more), case aside; undefined when none is that near or `word` is one
 * of them. Pure.
 */
export function nearestCommand(word: string, commands: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  if (commands.includes(word)) return undefined;
  const room = typed.length >= 5 ? 2 : 1;
  let best: { command: string; distance: number } | undefined;
  for (const command of commands) {
    const distance = editDistance(typed, command);
    if (distance <= room && (best === undefined || distance < best.distance)) {
      best = { command, distance };
    }
  }
  return best?.command;
}
