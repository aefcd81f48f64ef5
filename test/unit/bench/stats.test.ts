import { describe, expect, it } from "vitest";
import { planFrom, SCENARIOS } from "../../../bench/plan.js";
import { figures, median, p95, quantile, type Row } from "../../../bench/stats.js";
import { formatValue, renderTable } from "../../../bench/table.js";

const row = (variant: string, samples: number[], extra: Partial<Row> = {}): Row => ({
  scenario: "s",
  group: "g",
  variant,
  unit: "ms",
  samples,
  ...extra,
});

describe("bench statistics", () => {
  it("median and nearest-rank p95", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(p95(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19);
    expect(quantile([7], 0.95)).toBe(7);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it("compares each row with its own group's baseline, on the median or on p95", () => {
    const [base, a, b, other] = figures([
      row("direct", [10, 10, 10, 40], { baseline: true }),
      row("a2a", [12, 12, 12, 100]),
      row("a2a p95", [12, 12, 12, 100], { compare: "p95" }),
      row("alone", [5], { group: "h" }),
    ]);
    expect(base?.ratio).toBeUndefined();
    expect(a?.ratio).toBeCloseTo(1.2);
    expect(b?.ratio).toBeCloseTo(2.5);
    expect(other?.ratio).toBeUndefined();
  });

  it("renders one aligned row per figure, with units", () => {
    expect(formatValue(1234.4, "ms")).toBe("1,234 ms");
    expect(formatValue(3.25, "s")).toBe("3.25 s");
    expect(formatValue(1850.2, "/s")).toBe("1,850/s");
    expect(formatValue(1.0449, "×")).toBe("1.04×");
    expect(formatValue(0.0821, "MiB")).toBe("0.082 MiB");
    expect(formatValue(80.44, "MiB")).toBe("80.4 MiB");
    const lines = renderTable(
      figures([row("d", [1, 2], { baseline: true }), row("x", [2, 4])]),
    ).split("\n");
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[3]).toContain("2.00×");
  });
});

describe("bench plan", () => {
  it("BENCH_QUICK reduces the rounds, BENCH_ONLY picks scenarios and refuses unknown ones", () => {
    const full = planFrom({});
    const quick = planFrom({ BENCH_QUICK: "1", BENCH_ONLY: "store, long" });
    expect(quick.warmRounds).toBeLessThan(full.warmRounds);
    expect(quick.scenarios).toEqual(["store", "long"]);
    // Quick covers every scenario (but `compare`, which needs BENCH_BEFORE), each at small sizes.
    const everyQuick = planFrom({ BENCH_QUICK: "1" });
    expect(everyQuick.scenarios).toEqual(SCENARIOS.filter((s) => s !== "compare"));
    expect(everyQuick.storeBulkTasks).toBe(0);
    expect(Math.max(...everyQuick.workspaceSizes)).toBeLessThan(Math.max(...full.workspaceSizes));
    expect(everyQuick.sparesFiles).toBeLessThan(full.sparesFiles);
    // The sizes stay in the full run: a burst of 8, 4 slots shared by 8 conversations.
    expect([full.sparesBurst, full.poolSlots, full.sparesFiles]).toEqual([8, 4, 20_000]);
    expect(everyQuick.sparesBurst).toBeLessThan(full.sparesBurst);
    expect(full.scenarios).toEqual([
      "warm",
      "long",
      "concurrency",
      "store",
      "pool",
      "workspace",
      "fleet",
      "sandbox",
      "resume",
      "spares",
      "client",
      "scale",
      "trigger",
      "delivery",
    ]);
    expect(everyQuick.clientStartRounds).toBeLessThan(full.clientStartRounds);
    expect(everyQuick.deliveryRounds).toBeLessThan(full.deliveryRounds);
    expect(() => planFrom({ BENCH_ONLY: "warm,nope" })).toThrow(/nope/);
  });
});
