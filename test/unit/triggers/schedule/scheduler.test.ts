/**
 * The scheduler on the clock seam (docs/triggers.md "Schedules"): time by hand, firing rows in a
 * real SQLite file, the request handler a recorder of what was sent. A schedule fires once per
 * period; a restart that missed periods follows `catchUp`; two schedulers on one table fire a
 * period once in all; `fireNow` fires one of its own.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { sql } from "kysely";
import { pino } from "pino";
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Timers } from "../../../../src/common/timers.js";
import { resolveConfig } from "../../../../src/config/load.js";
import { openDatabase } from "../../../../src/store/database.js";
import { openLocalFiringRows, type FiringRows } from "../../../../src/store/firing-rows.js";
import { SESSIONS_DB_FILE } from "../../../../src/store/session-map.js";
import { Scheduler } from "../../../../src/triggers/schedule/scheduler.js";
import { CallerLimitError } from "../../../../src/a2a/handler/limit-error.js";

/** Timers that fire only when the test says. */
class ManualTimers implements Timers {
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  private seq = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    this.pending.set(++this.seq, { fn, ms });
    return this.seq;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}

/** What a request handler was sent, answered with a task that holds the message. */
class Recorder {
  readonly sent: { message: Message; caller: unknown }[] = [];
  /** Thrown by the next sends instead of answering (a limit's refusal). */
  refuse: Error | undefined;
  readonly handler = {
    sendMessage: (params: { message: Message }, context: { state: Map<string, unknown> }) => {
      this.sent.push({ message: params.message, caller: context.state.get("caller") });
      if (this.refuse) return Promise.reject(this.refuse);
      const task: Task = {
        id: `task-${this.sent.length}`,
        contextId: params.message.contextId || `ctx-${this.sent.length}`,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        history: [params.message],
        artifacts: [],
        metadata: {},
      };
      return Promise.resolve(task);
    },
  } as unknown as A2ARequestHandler;
  prompts(): string[] {
    return this.sent.map((s) =>
      s.message.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(""),
    );
  }
}

const schedules = (catchUp: "skip" | "once") =>
  resolveConfig(
    {
      triggers: {
        deps: {
          kind: "schedule",
          cron: "0 3 * * *",
          catchUp,
          prompt: "Update the dependencies ({{schedule.time}}, {{schedule.firing}}).",
        },
      },
    },
    { file: "t.json", startDir: "/work" },
  ).triggers;

let dir: string;
let now: number;
const clock = { now: () => now };
const opened: { stop(): Promise<void> }[] = [];
const rowsOpened: FiringRows[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-schedules-"));
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.stop();
  for (const r of rowsOpened.splice(0)) await r.close();
  await rm(dir, { recursive: true, force: true });
});

async function scheduler(
  catchUp: "skip" | "once",
  o: { instance?: string; registry?: Registry; recorder?: Recorder; timers?: ManualTimers } = {},
) {
  const rows = await openLocalFiringRows(dir, "");
  rowsOpened.push(rows);
  const recorder = o.recorder ?? new Recorder();
  const timers = o.timers ?? new ManualTimers();
  const registry = o.registry ?? new Registry();
  const s = new Scheduler({
    triggers: schedules(catchUp),
    rows,
    handler: recorder.handler,
    logger: pino({ level: "silent" }),
    registry,
    instance: o.instance ?? "",
    env: {},
    clock,
    timers,
  });
  opened.push(s);
  return { s, recorder, timers, registry };
}

async function counted(registry: Registry, outcome: string): Promise<number> {
  const metric = await registry.getSingleMetric("claude_a2a_trigger_firings_total")?.get();
  return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

async function rowCount(): Promise<number> {
  const { db } = await openDatabase({ type: "sqlite", file: join(dir, SESSIONS_DB_FILE) });
  try {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from claude_a2a_trigger_firings where kind = 'scheduled'`.execute(db);
    return Number(rows[0]?.n);
  } finally {
    await db.destroy();
  }
}

const at = (iso: string) => new Date(iso).getTime();

describe("a schedule on the clock seam", () => {
  it("fires once per period, as its trigger's caller, its prompt from the template", async () => {
    now = at("2026-01-01T02:59:00Z");
    const { s, recorder, timers } = await scheduler("skip");
    await s.start();
    expect(recorder.sent).toEqual([]);
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([60_000]);
    expect(s.nextFiring("deps")).toEqual(new Date("2026-01-01T03:00:00Z"));

    // A timer that wakes early (or twice) fires nothing.
    now = at("2026-01-01T02:59:30Z");
    timers.fireAll();
    await s.settled();
    expect(recorder.sent).toEqual([]);

    now = at("2026-01-01T03:00:00Z");
    timers.fireAll();
    await s.settled();
    timers.fireAll();
    await s.settled();
    expect(recorder.sent.map((x) => x.caller)).toEqual(["trigger:deps"]);
    expect(recorder.prompts()[0]).toContain(
      "Update the dependencies (2026-01-01T03:00:00.000Z, scheduled).",
    );
    expect(recorder.sent[0]?.message.metadata).toMatchObject({
      origin: "trigger",
      trigger: "deps",
      eventId: "2026-01-01T03:00:00.000Z",
    });

    now = at("2026-01-02T03:00:01Z");
    timers.fireAll();
    await s.settled();
    expect(recorder.sent).toHaveLength(2);
    expect(recorder.prompts()[1]).toContain("2026-01-02T03:00:00.000Z");
    expect(await rowCount()).toBe(2);
    expect((await s.lastFiring("deps"))?.scheduledAt).toEqual(new Date("2026-01-02T03:00:00Z"));
  });

  it.each([
    ["skip", 0, 3],
    ["once", 1, 2],
  ] as const)(
    "a restart that missed three periods, with catchUp %s, fires %i and skips %i",
    async (catchUp, fired, skipped) => {
      now = at("2026-01-01T02:59:00Z");
      const first = await scheduler(catchUp);
      await first.s.start();
      now = at("2026-01-01T03:00:00Z");
      first.timers.fireAll();
      await first.s.stop();
      expect(first.recorder.sent).toHaveLength(1);

      // Down from just after the first firing until day 4, 10:00: days 2, 3 and 4 missed.
      now = at("2026-01-04T10:00:00Z");
      const second = await scheduler(catchUp);
      await second.s.start();
      expect(second.recorder.sent).toHaveLength(fired);
      if (fired === 1) {
        expect(second.recorder.prompts()[0]).toContain("(2026-01-04T03:00:00.000Z, catch-up)");
      }
      expect(await counted(second.registry, "skipped")).toBe(skipped);
      expect(second.s.nextFiring("deps")).toEqual(new Date("2026-01-05T03:00:00Z"));
      await second.s.stop();

      // Started again the same day: nothing more was missed, nothing fires or is skipped again.
      now = at("2026-01-04T11:00:00Z");
      const third = await scheduler(catchUp);
      await third.s.start();
      expect(third.recorder.sent).toEqual([]);
      expect(await counted(third.registry, "skipped")).toBe(0);
    },
  );

  it("a schedule never run before catches nothing up, even with catchUp once", async () => {
    now = at("2026-01-04T10:00:00Z");
    const { s, recorder } = await scheduler("once");
    await s.start();
    expect(recorder.sent).toEqual([]);
    expect(await s.lastFiring("deps")).toBeUndefined();
    await s.stop();
    // Its first start is remembered: a restart after a missed period catches that one up.
    now = at("2026-01-05T10:00:00Z");
    const again = await scheduler("once");
    await again.s.start();
    expect(again.recorder.prompts()).toEqual([
      expect.stringContaining("(2026-01-05T03:00:00.000Z, catch-up)"),
    ]);
  });

  it("two schedulers on one table fire a period once in all: the row decides", async () => {
    now = at("2026-01-01T02:59:00Z");
    const recorder = new Recorder();
    const timers = new ManualTimers();
    const a = await scheduler("skip", { instance: "a", recorder, timers });
    const b = await scheduler("skip", { instance: "b", recorder, timers });
    await Promise.all([a.s.start(), b.s.start()]);
    now = at("2026-01-01T03:00:00Z");
    timers.fireAll();
    await Promise.all([a.s.settled(), b.s.settled()]);
    expect(recorder.sent).toHaveLength(1);
    expect(await rowCount()).toBe(1);
    const duplicates =
      (await counted(a.registry, "duplicate")) + (await counted(b.registry, "duplicate"));
    expect(duplicates).toBe(1);
  });

  it("fireNow fires one now, on a row of its own, without touching the periods", async () => {
    now = at("2026-01-01T12:00:00Z");
    const { s, recorder, registry } = await scheduler("skip");
    await s.start();
    const result = await s.fireNow("deps");
    expect(result).toMatchObject({ outcome: "started", taskId: "task-1" });
    expect(result.outcome === "started" && result.key).toMatch(/^manual:/);
    expect(recorder.prompts()[0]).toContain("(2026-01-01T12:00:00.000Z, manual)");
    expect(await s.lastFiring("deps")).toMatchObject({
      kind: "manual",
      outcome: "started",
      taskId: "task-1",
    });
    expect(s.nextFiring("deps")).toEqual(new Date("2026-01-02T03:00:00Z"));
    expect(await counted(registry, "started")).toBe(1);
    expect(await s.fireNow("nope")).toEqual({
      outcome: "not-found",
      reason: 'No schedule "nope" in this workspace.',
    });
    expect(recorder.sent).toHaveLength(1);
  });

  it("a period its daily budget refuses starts nothing, and is recorded and counted as budget", async () => {
    now = at("2026-01-01T02:59:00Z");
    const { s, recorder, timers, registry } = await scheduler("skip");
    recorder.refuse = new CallerLimitError(
      "trigger:deps",
      { limit: "dailyBudgetUsd", max: 1, spentUsd: 1.2, resetsAt: at("2026-01-02T00:00:00Z") },
      now,
    );
    await s.start();
    now = at("2026-01-01T03:00:00Z");
    timers.fireAll();
    await s.settled();
    expect(await counted(registry, "budget")).toBe(1);
    expect(await counted(registry, "started")).toBe(0);
    expect(await s.lastFiring("deps")).toMatchObject({ kind: "scheduled", outcome: "budget" });
    // The next period tries again.
    recorder.refuse = undefined;
    now = at("2026-01-02T03:00:00Z");
    timers.fireAll();
    await s.settled();
    expect(await counted(registry, "started")).toBe(1);
  });
});
