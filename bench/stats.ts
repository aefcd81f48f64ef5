/**
 * The figures of one run: every measured row, its median and p95, and its ratio against the
 * baseline row of its group measured in the same run. Pure.
 */

/** `×`: a ratio measured as such (e.g. the median of per-round ratios of paired samples). */
/** `MiB`: disk (2^20 bytes), with three decimals under 1 (a worktree's git metadata). */
export type Unit = "ms" | "s" | "µs" | "MB" | "MiB" | "count" | "/s" | "%" | "load" | "×";

export interface Row {
  /** The scenario (first column), e.g. "warm turn". */
  readonly scenario: string;
  /** What is measured, e.g. "final", "wall N=5,000": rows of one group share a baseline. */
  readonly group: string;
  /** Who is measured, e.g. "A2A blocking", "direct SDK". */
  readonly variant: string;
  readonly unit: Unit;
  readonly samples: readonly number[];
  /** The row every other row of its group is compared with. */
  readonly baseline?: boolean;
  /** What the issue asks of this row, shown beside it, e.g. "≤ 1.15×". */
  readonly target?: string;
  /** Which statistic the ratio compares (default the median; the concurrency target is on p95). */
  readonly compare?: "median" | "p95";
}

/** The q-quantile (nearest rank) of samples; NaN when there are none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

export const median = (samples: readonly number[]): number => {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const p95 = (samples: readonly number[]): number => quantile(samples, 0.95);

export interface Figure {
  readonly row: Row;
  readonly median: number;
  readonly p95: number;
  /**
   * This row's median (or p95, per `compare`) over the same statistic of its group's baseline;
   * undefined for the baseline itself or without one.
   */
  readonly ratio: number | undefined;
}

/** Each row with its median, p95 and ratio against its group's baseline. */
export function figures(rows: readonly Row[]): Figure[] {
  const baselines = new Map<string, Row>();
  for (const row of rows) if (row.baseline) baselines.set(`${row.scenario}\0${row.group}`, row);
  return rows.map((row) => {
    const base = baselines.get(`${row.scenario}\0${row.group}`);
    // Both sides of a ratio use the row's statistic.
    const stat = row.compare === "p95" ? p95 : median;
    const denominator = base === undefined ? Number.NaN : stat(base.samples);
    const ratio = stat(row.samples) / denominator;
    return {
      row,
      median: median(row.samples),
      p95: p95(row.samples),
      ratio: row.baseline || !Number.isFinite(ratio) ? undefined : ratio,
    };
  });
}
