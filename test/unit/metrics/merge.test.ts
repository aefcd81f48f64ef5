import { Counter, Gauge, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { mergeExpositions } from "../../../src/metrics/merge.js";

/** A registry like one workspace's: its own metrics, every sample labelled with the workspace. */
function registry(workspace: string, runs: number, live: number): Registry {
  const r = new Registry();
  r.setDefaultLabels({ workspace });
  new Counter({ name: "x_runs_total", help: "Runs.", labelNames: ["outcome"], registers: [r] }).inc(
    { outcome: "completed" },
    runs,
  );
  new Gauge({ name: "x_live", help: "Live.", registers: [r] }).set(live);
  return r;
}

describe("mergeExpositions (pure)", () => {
  it("lists each family once, its HELP and TYPE first, then every workspace's samples", async () => {
    const texts = await Promise.all(
      [registry("api", 2, 1), registry("web", 3, 0)].map((r) => r.metrics()),
    );
    expect(mergeExpositions(texts)).toBe(
      [
        "# HELP x_runs_total Runs.",
        "# TYPE x_runs_total counter",
        'x_runs_total{outcome="completed",workspace="api"} 2',
        'x_runs_total{outcome="completed",workspace="web"} 3',
        "",
        "# HELP x_live Live.",
        "# TYPE x_live gauge",
        'x_live{workspace="api"} 1',
        'x_live{workspace="web"} 0',
        "",
      ].join("\n"),
    );
  });

  it("is empty for nothing", () => {
    expect(mergeExpositions([])).toBe("");
  });
});
