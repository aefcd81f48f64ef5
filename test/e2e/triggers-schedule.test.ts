/**
 * Schedule triggers (issue 51, docs/triggers.md "Schedules") on the real runtime and the scripted
 * model: at its period a schedule starts a task as `trigger:<name>` whose prompt comes from its
 * template, and a restart that missed periods follows each schedule's `catchUp`. The server's
 * wall clock is the test's (the clock seam), set a moment before the period, so the real timer
 * waits about a second, not a night.
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { connect } from "../../src/client/connect.js";
import { a2a, getTask, says, tokenEntries } from "../support/harness/index.js";
import { captureLogs } from "../support/grpc.js";

const TIMEOUT = 120_000;
const OPS = "ops-token-schedules-0123";

const nightly = (catchUp: "skip" | "once") => ({
  kind: "schedule" as const,
  cron: "0 3 * * *",
  catchUp,
  prompt:
    "Nightly {{schedule.name}}: update the dependencies for {{schedule.time}} ({{schedule.firing}}).",
});

/** The operator's view of every task, oldest first. */
async function tasks(ops: Client): Promise<Task[]> {
  const listed = await ops.listTasks({
    tenant: "",
    contextId: "",
    pageSize: 100,
    pageToken: "",
    historyLength: 1,
    statusTimestampAfter: undefined,
    includeArtifacts: false,
    status: 0,
  });
  return [...listed.tasks].reverse();
}

/** Once `n` tasks exist and all completed (a bounded wait on the store, not a tuned sleep). */
async function completed(ops: Client, n: number): Promise<Task[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const all = await tasks(ops);
    const done = await Promise.all(all.map((t) => getTask(ops, t.id)));
    if (
      done.length === n &&
      done.every((t) => t.status?.state === TaskState.TASK_STATE_COMPLETED)
    ) {
      return done;
    }
    if (Date.now() > deadline) throw new Error(`tasks: ${done.map((t) => t.status?.state).join()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const promptOf = (t: Task): string =>
  t.history
    .flatMap((m) => m.parts)
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");

describe("schedule triggers", () => {
  it(
    "fire at their period with the template's prompt; a restart follows catchUp",
    async () => {
      let now = Date.UTC(2026, 2, 1, 2, 59, 59);
      const logs = captureLogs();
      const h = await a2a({
        logger: logs.logger,
        clock: { now: () => now + (Date.now() - realStart) },
        rules: [
          says("Nightly nightly-once", "Updated (once)."),
          says("Nightly nightly-skip", "Updated (skip)."),
        ],
        config: {
          server: { auth: { tokens: tokenEntries({ ops: OPS }) }, operators: ["ops"] },
          triggers: { "nightly-once": nightly("once"), "nightly-skip": nightly("skip") },
        },
      });
      const ops = await connect(h.server.url, OPS);
      if (!ops) throw new Error("no client");

      // 03:00 comes about a second later on the server's clock: each schedule fires once.
      const first = await completed(ops, 2);
      expect(first.map((t) => String(t.metadata?.trigger)).sort()).toEqual([
        "nightly-once",
        "nightly-skip",
      ]);
      for (const t of first) {
        const name = String(t.metadata?.trigger);
        expect(t.metadata).toMatchObject({
          origin: "trigger",
          owner: `trigger:${name}`,
          eventId: "2026-03-01T03:00:00.000Z",
        });
        expect(promptOf(t)).toContain(
          `Nightly ${name}: update the dependencies for 2026-03-01T03:00:00.000Z (scheduled).`,
        );
      }
      const started = logs.lines.filter((l) => l.msg === "schedule: started");
      expect(started.map((l) => [l.trigger, l.scheduledTime])).toEqual(
        expect.arrayContaining([
          ["nightly-once", "2026-03-01T03:00:00.000Z"],
          ["nightly-skip", "2026-03-01T03:00:00.000Z"],
        ]),
      );

      // Down until day 4, 10:00: the periods of days 2, 3 and 4 were missed.
      now = Date.UTC(2026, 2, 4, 10, 0, 0) - (Date.now() - realStart);
      await h.restart();
      const ops2 = await connect(h.server.url, OPS);
      if (!ops2) throw new Error("no client");
      const after = await completed(ops2, 3);
      const caughtUp = after.filter((t) => !first.some((f) => f.id === t.id));
      expect(caughtUp).toHaveLength(1);
      expect(caughtUp[0]?.metadata).toMatchObject({
        trigger: "nightly-once",
        eventId: "2026-03-04T03:00:00.000Z",
      });
      expect(promptOf(caughtUp[0] as Task)).toContain("for 2026-03-04T03:00:00.000Z (catch-up).");
      const skipped = logs.lines.filter((l) => l.msg === "schedule: missed firings skipped");
      expect(skipped.map((l) => [l.trigger, l.skipped])).toEqual(
        expect.arrayContaining([
          ["nightly-once", 2],
          ["nightly-skip", 3],
        ]),
      );
      const metrics = await (
        await fetch(`${h.server.url}/metrics`, { headers: { authorization: `Bearer ${OPS}` } })
      ).text();
      expect(metrics).toContain(
        'claude_a2a_trigger_firings_total{trigger="nightly-skip",outcome="skipped"} 3',
      );
      expect(metrics).toContain(
        'claude_a2a_trigger_firings_total{trigger="nightly-once",outcome="started"} 1',
      );
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "an operator lists a schedule with its next and last firing, and fires one now",
    async () => {
      // Noon: the next period is tomorrow's 03:00, far from the test's own steps.
      const now = Date.UTC(2026, 2, 1, 12, 0, 0);
      const h = await a2a({
        clock: { now: () => now + (Date.now() - realStart) },
        rules: [says("Nightly nightly-once", "Updated (by hand).")],
        config: {
          server: { auth: { tokens: tokenEntries({ ops: OPS }) }, operators: ["ops"] },
          triggers: { "nightly-once": nightly("once") },
        },
      });
      const asOps = { authorization: `Bearer ${OPS}` };
      const listing = async () =>
        (
          (await (await fetch(`${h.server.url}/triggers`, { headers: asOps })).json()) as {
            triggers: Record<string, unknown>[];
          }
        ).triggers;
      expect(await listing()).toEqual([
        {
          name: "nightly-once",
          kind: "schedule",
          cron: "0 3 * * *",
          timeZone: "UTC",
          nextFiring: "2026-03-02T03:00:00.000Z",
        },
      ]);

      const fired = await fetch(`${h.server.url}/triggers/nightly-once/fire`, {
        method: "POST",
        headers: asOps,
      });
      expect(fired.status).toBe(202);
      const answer = (await fired.json()) as { outcome: string; taskId: string; eventId: string };
      expect(answer).toMatchObject({ outcome: "started", trigger: "nightly-once" });
      expect(answer.eventId).toMatch(/^manual:/);
      const ops = await connect(h.server.url, OPS);
      if (!ops) throw new Error("no client");
      const [task] = await completed(ops, 1);
      expect(task?.id).toBe(answer.taskId);
      expect(promptOf(task as Task)).toContain("(manual).");

      const [after] = await listing();
      expect(after).toMatchObject({
        nextFiring: "2026-03-02T03:00:00.000Z",
        lastFiring: { outcome: "started", taskId: answer.taskId },
      });
      const unknown = await fetch(`${h.server.url}/triggers/nope/fire`, {
        method: "POST",
        headers: asOps,
      });
      expect(unknown.status).toBe(404);
      expect(h.bench.model.unmatched).toEqual([]);
    },
    TIMEOUT,
  );
});

const realStart = Date.now();
