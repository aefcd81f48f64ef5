/** What per-caller limits keep in the store, run against SQLite and PostgreSQL. */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { CallerLimits } from "../../../src/limits/caller-limits.js";
import type { TaskStores } from "../../../src/store/task-stores.js";
import { useTargetStores, type ContractTarget } from "./store-contract.js";

const logger = pino({ level: "silent" });
const DAY = Date.UTC(2025, 0, 31, 12);

export function describeCallerUsageContract(name: string, target: ContractTarget): void {
  describe(`${name} caller usage`, () => {
    const { open, openStores } = useTargetStores(target);
    const restart = async (stores: TaskStores) => {
      await stores.close();
      open.splice(open.indexOf(stores), 1);
      return openStores();
    };

    it("keeps task starts and spend per caller and day across a restart", async () => {
      let stores = await openStores();
      await stores.usage.recordStart("token:ci", DAY - 30_000);
      await stores.usage.recordStart("token:ci", DAY - 1_000);
      await stores.usage.recordStart("login:ada", DAY - 120_000);
      await stores.usage.addSpend("token:ci", "2025-01-31", 0.25);
      await stores.usage.addSpend("token:ci", "2025-01-31", 0.5);
      await stores.usage.addSpend("token:ci", "2025-01-30", 7);
      await stores.usage.addSpend("login:ada", "2025-01-31", 0.00033);
      stores = await restart(stores); // the migration runs again: a no-op

      const snapshot = await stores.usage.load(DAY - 60_000, "2025-01-31");
      expect([...snapshot.starts].sort((a, b) => a.atMs - b.atMs)).toEqual([
        { owner: "token:ci", atMs: DAY - 30_000 },
        { owner: "token:ci", atMs: DAY - 1_000 },
      ]);
      const spend = Object.fromEntries(snapshot.spend.map((s) => [s.owner, s.usd]));
      expect(spend["token:ci"]).toBeCloseTo(0.75, 10);
      expect(spend["login:ada"]).toBeCloseTo(0.00033, 10);
      expect(Object.keys(spend)).toHaveLength(2);
    });

    it("prunes starts before a time and spend before a day", async () => {
      const stores = await openStores();
      await stores.usage.recordStart("token:ci", DAY - 120_000);
      await stores.usage.recordStart("token:ci", DAY);
      await stores.usage.addSpend("token:ci", "2024-12-01", 1);
      await stores.usage.addSpend("token:ci", "2025-01-31", 2);
      await stores.usage.prune(DAY - 60_000, "2025-01-01");
      expect((await stores.usage.load(0, "2024-12-01")).spend).toEqual([]);
      const snapshot = await stores.usage.load(0, "2025-01-31");
      expect(snapshot.starts).toEqual([{ owner: "token:ci", atMs: DAY }]);
      expect(snapshot.spend).toEqual([{ owner: "token:ci", usd: 2 }]);
    });

    it("a daily budget reached before a restart still refuses after it, and resets at the next UTC day", async () => {
      let now = DAY;
      const clock = { now: () => now };
      const config = { default: { dailyBudgetUsd: 1, tasksPerMinute: 2 }, callers: [] };
      let stores = await openStores();
      let limits = await CallerLimits.open({ config, store: stores.usage, clock, logger });
      expect(limits.admit("token:ci", "m1").ok).toBe(true);
      limits.charge("token:ci", 1.2);
      await limits.drain();
      stores = await restart(stores);

      limits = await CallerLimits.open({ config, store: stores.usage, clock, logger });
      const refused = limits.admit("token:ci", "m2");
      expect(refused).toMatchObject({
        ok: false,
        reason: { limit: "dailyBudgetUsd", spentUsd: 1.2, resetsAt: Date.UTC(2025, 1, 1) },
      });
      expect(limits.admit("login:ada", "m3").ok).toBe(true); // another caller: unaffected
      now = Date.UTC(2025, 1, 1);
      expect(limits.admit("token:ci", "m4").ok).toBe(true);
      await limits.drain();
    });

    it("tasks started in the last minute before a restart still count after it", async () => {
      const now = DAY;
      const clock = { now: () => now };
      const config = { default: { tasksPerMinute: 2 }, callers: [] };
      let stores = await openStores();
      let limits = await CallerLimits.open({ config, store: stores.usage, clock, logger });
      expect(limits.admit("token:ci", "m1").ok).toBe(true);
      expect(limits.admit("token:ci", "m2").ok).toBe(true);
      await limits.drain();
      stores = await restart(stores);
      limits = await CallerLimits.open({ config, store: stores.usage, clock, logger });
      expect(limits.admit("token:ci", "m3")).toMatchObject({
        ok: false,
        reason: { limit: "tasksPerMinute", max: 2, resetsAt: DAY + 60_000 },
      });
    });
  });
}
