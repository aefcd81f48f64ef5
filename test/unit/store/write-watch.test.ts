/** The store's write faults as `/healthz` shows them, and the status they make (issue 33). */
import { describe, expect, it } from "vitest";
import { healthHttpStatus, storeStatus, worstStatus } from "../../../src/http/health.js";
import { WriteWatch } from "../../../src/store/write-watch.js";

const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
const gone = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

describe("WriteWatch", () => {
  it("shows a part whose last write failed until one of its writes succeeds", async () => {
    let now = 1_000;
    const watch = new WriteWatch(() => now, 60_000);
    await expect(watch.watch("tasks", () => Promise.reject(full))).rejects.toBe(full);
    now = 2_000;
    await expect(watch.watch("replay", () => Promise.reject(gone))).rejects.toBe(gone);
    expect(watch.faults()).toEqual([
      { part: "tasks", fault: "full", error: "database or disk is full", since: iso(1_000) },
      { part: "replay", fault: "unavailable", error: "connect ECONNREFUSED", since: iso(2_000) },
    ]);
    // A write of the other part does not clear it; one of its own does.
    expect(await watch.watch("replay", () => Promise.resolve("ok"))).toBe("ok");
    expect(watch.faults().map((f) => f.part)).toEqual(["tasks"]);
    await watch.watch("tasks", () => Promise.resolve());
    expect(watch.faults()).toEqual([]);
  });

  it("keeps when it first failed while the same fault repeats; shows it for shownMs after the last", () => {
    let now = 0;
    const watch = new WriteWatch(() => now, 60_000);
    watch.failed("tasks", full);
    now = 50_000;
    watch.failed("tasks", full);
    now = 100_000;
    expect(watch.faults()).toMatchObject([{ since: iso(0) }]);
    now = 110_001;
    expect(watch.faults()).toEqual([]);
  });

  it("a different fault of the part replaces it", () => {
    let now = 0;
    const watch = new WriteWatch(() => now);
    watch.failed("tasks", gone);
    now = 5;
    watch.failed("tasks", full);
    expect(watch.faults()).toMatchObject([{ fault: "full", since: iso(5) }]);
  });
});

describe("health status", () => {
  it.each([
    { reachable: true, faults: 0, status: "ok" },
    { reachable: false, faults: 0, status: "degraded" },
    { reachable: true, faults: 1, status: "degraded" },
    { reachable: false, faults: 2, status: "degraded" },
  ] as const)("store reachable $reachable, $faults fault(s): $status", (c) => {
    const faults = Array.from({ length: c.faults }, () => ({
      part: "tasks" as const,
      fault: "full" as const,
      error: "x",
      since: iso(0),
    }));
    expect(storeStatus(c.reachable, faults)).toBe(c.status);
  });

  it.each([
    { statuses: [], worst: "ok" },
    { statuses: ["ok", "ok"], worst: "ok" },
    { statuses: ["ok", "degraded"], worst: "degraded" },
    { statuses: ["degraded", "unavailable", "ok"], worst: "unavailable" },
  ] as const)("the worst of $statuses is $worst", ({ statuses, worst }) => {
    expect(worstStatus(statuses)).toBe(worst);
  });

  it("answers 503 only when unavailable", () => {
    expect([healthHttpStatus("ok"), healthHttpStatus("degraded")]).toEqual([200, 200]);
    expect(healthHttpStatus("unavailable")).toBe(503);
  });
});

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
