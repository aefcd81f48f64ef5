import type { Figure, Unit } from "./stats.js";

/** A number in its unit, compactly: 0.83 ms, 1,240 ms, 3.2 s, 245 MB, 1,850/s. Pure. */
export function formatValue(value: number, unit: Unit): string {
  if (Number.isNaN(value)) return "–";
  const grouped = (n: number, digits: number) =>
    n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  switch (unit) {
    case "ms":
      return `${grouped(value, value < 10 ? 1 : 0)} ms`;
    case "s":
      return `${grouped(value, 2)} s`;
    case "µs":
      return `${grouped(value, value < 10 ? 2 : 1)} µs`;
    case "MB":
      return `${grouped(value, 0)} MB`;
    case "MiB":
      return `${grouped(value, value < 1 ? 3 : value < 10 ? 2 : 1)} MiB`;
    case "count":
      return grouped(value, 0);
    case "/s":
      return `${grouped(value, 0)}/s`;
    case "%":
      return `${grouped(value, 0)} %`;
    case "load":
      return grouped(value, 1);
    case "×":
      return `${grouped(value, 2)}×`;
  }
}

export const formatRatio = (ratio: number | undefined): string =>
  ratio === undefined ? "" : `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;

const HEADER = ["scenario", "measure", "variant", "n", "median", "p95", "ratio", "target"];

/** The figures as one aligned plain-text table (also valid Markdown). Pure. */
export function renderTable(figs: readonly Figure[]): string {
  const lines = figs.map((f) => [
    f.row.scenario,
    f.row.group,
    f.row.variant + (f.row.baseline ? " (baseline)" : ""),
    String(f.row.samples.length),
    formatValue(f.median, f.row.unit),
    f.row.samples.length > 1 ? formatValue(f.p95, f.row.unit) : "",
    formatRatio(f.ratio),
    f.row.target ?? "",
  ]);
  const all = [HEADER, ...lines];
  const widths = HEADER.map((_, i) => Math.max(...all.map((cells) => (cells[i] ?? "").length)));
  // Numbers right-aligned, words left-aligned.
  const right = new Set([3, 4, 5, 6]);
  const render = (cells: readonly string[]) =>
    `| ${cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (right.has(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [render(HEADER), rule, ...lines.map(render)].join("\n");
}
