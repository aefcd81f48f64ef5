/**
 * The schedule triggers' firing rows (`src/store/firing-rows.ts`), a case group of the shared
 * store suite: opened where the backend keeps them (`openFiringRows` on the backend's
 * `databaseSpec`, as the server does), in its database or, for memory, in the session map's file.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  openFiringRows,
  type FiringKind,
  type FiringRow,
  type FiringRows,
} from "../../src/store/firing-rows.js";
import { databaseSpec } from "../../src/store/task-stores.js";
import type { ContractTarget } from "../unit/store/store-contract.js";

const row = (
  key: string,
  o: { trigger?: string; kind?: FiringKind; at?: string; instance?: string } = {},
): FiringRow => ({
  trigger: o.trigger ?? "nightly",
  key,
  kind: o.kind ?? "scheduled",
  scheduledAt: new Date(o.at ?? key),
  instance: o.instance ?? "",
  outcome: "claimed",
});

export function firingRowsCases(target: ContractTarget): void {
  let opened: FiringRows[] = [];
  /** Rows of `workspace` on a connection of their own: a second call is a second opener. */
  const open = async (workspace = "") => {
    const rows = await openFiringRows(
      databaseSpec(target.config(), target.cwd()),
      target.cwd(),
      workspace,
    );
    opened.push(rows);
    return rows;
  };
  beforeEach(async () => {
    await target.beforeEach?.();
  });
  /** Closes `rows` (a restart: the next `open` reads what they wrote). */
  const close = async (rows: FiringRows) => {
    opened = opened.filter((r) => r !== rows);
    await rows.close();
  };
  afterEach(async () => {
    for (const rows of opened.splice(0)) await rows.close();
    await target.afterEach?.();
  });

  it("claims a firing once: the same key again is false, here, after a restart, and elsewhere", async () => {
    const rows = await open();
    const first = row("2025-01-01T00:00:00.000Z");
    expect(await rows.claim(first)).toBe(true);
    expect(await rows.claim(first)).toBe(false);
    expect(await rows.claim({ ...first, instance: "host-b/ws", outcome: "started" })).toBe(false);
    // The row kept is the first claim's, not the refused one's.
    expect(await rows.latest("nightly", ["scheduled"], { skipped: true })).toEqual(first);
    expect(await rows.claim(row("2025-01-02T00:00:00.000Z"))).toBe(true);
    expect(await rows.claim({ ...first, trigger: "weekly" })).toBe(true);
    await close(rows);

    const again = await open();
    expect(await again.claim(first)).toBe(false);
    expect(await again.claim(row("2025-01-02T00:00:00.000Z"))).toBe(false);
    // Another workspace's schedule of the same name is its own.
    expect(await (await open("other-ws")).claim(first)).toBe(true);
  });

  it("of concurrent claims of one firing by two openers on one database, exactly one wins", async () => {
    const a = await open();
    const b = await open();
    const keys = Array.from({ length: 8 }, (_, i) => `2025-01-01T0${String(i)}:00:00.000Z`);
    const claims = await Promise.all(
      keys.flatMap((key) => [
        a.claim(row(key, { instance: "host-a/ws" })),
        b.claim(row(key, { instance: "host-b/ws" })),
      ]),
    );
    for (let i = 0; i < keys.length; i++) {
      expect([claims[2 * i], claims[2 * i + 1]].sort()).toEqual([false, true]);
    }
    const last = await a.latest("nightly", ["scheduled"], { skipped: true });
    expect(last?.key).toBe(keys.at(-1));
    // The instance named is the winner's.
    expect(last?.instance).toBe(claims.at(-2) === true ? "host-a/ws" : "host-b/ws");
  });

  it("latest() is the latest scheduled time among the kinds asked, of that trigger only", async () => {
    const rows = await open();
    await rows.claim(row("2024-12-31T00:00:00.000Z", { kind: "baseline" }));
    await rows.claim(row("2025-01-01T00:00:00.000Z"));
    await rows.claim(row("2025-01-03T00:00:00.000Z"));
    await rows.claim(row("2025-01-02T00:00:00.000Z"));
    await rows.claim(row("manual:m-1", { kind: "manual", at: "2025-01-04T00:00:00.000Z" }));
    await rows.claim(row("2025-02-01T00:00:00.000Z", { trigger: "weekly" }));
    const latest = async (kinds: FiringKind[]) =>
      (await rows.latest("nightly", kinds, { skipped: true }))?.key;
    expect(await latest(["scheduled"])).toBe("2025-01-03T00:00:00.000Z");
    expect(await latest(["scheduled", "manual"])).toBe("manual:m-1");
    expect(await latest(["baseline"])).toBe("2024-12-31T00:00:00.000Z");
    expect(await latest([])).toBeUndefined();
    expect(await rows.latest("never", ["scheduled"], { skipped: true })).toBeUndefined();
  });

  it("settle() records the outcome and task; skipped periods are passed over when asked", async () => {
    const rows = await open();
    await rows.claim(row("2025-01-01T00:00:00.000Z"));
    await rows.claim(row("2025-01-02T00:00:00.000Z"));
    await rows.settle("nightly", "2025-01-01T00:00:00.000Z", "started", "task-1");
    await rows.settle("nightly", "2025-01-02T00:00:00.000Z", "skipped");
    // A settle of a firing never claimed adds nothing.
    await rows.settle("nightly", "2025-01-09T00:00:00.000Z", "started", "task-9");
    await close(rows);

    const again = await open();
    expect(await again.latest("nightly", ["scheduled"], { skipped: false })).toEqual({
      ...row("2025-01-01T00:00:00.000Z"),
      outcome: "started",
      taskId: "task-1",
    });
    const skipped = await again.latest("nightly", ["scheduled"], { skipped: true });
    expect(skipped).toMatchObject({ key: "2025-01-02T00:00:00.000Z", outcome: "skipped" });
    expect(skipped?.taskId).toBeUndefined();
    expect(await again.claim(row("2025-01-09T00:00:00.000Z"))).toBe(true);
  });
}
