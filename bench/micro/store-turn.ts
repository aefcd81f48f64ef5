/**
 * In-process, interleaved: the store work of one short turn as the SDK's result manager does it
 * (a load and a save of the whole task per event, the push configs read per event), on the
 * SQLite stores as they were (the SDK's stores, every save an upsert) and as they are
 * (`sqlite-stores.ts`: write-behind task store, cached push configs). Prints the median time per
 * turn of each, measured in the same run on the same machine.
 *
 *   npx tsx bench/micro/store-turn.ts [rounds=15] [turns per round=200]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext, type PushNotificationStore, type TaskStore } from "@a2a-js/sdk/server";
import { DatabasePushNotificationStore, DatabaseTaskStore } from "@a2a-js/sdk/server/database";
import { pino } from "pino";
import { agentMessage, artifact, textPart } from "../../src/contract/messages.js";
import { CallerUser } from "../../src/identity/caller.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStores } from "../../src/store/sqlite-stores.js";
import { median } from "../stats.js";

const [rounds = 15, turns = 200] = process.argv.slice(2).map(Number);
const context = new ServerCallContext({ user: new CallerUser({ kind: "login", login: "bench" }) });
const logger = pino({ level: "silent" });

/** Seven events: submitted, working, four text chunks, completed (what a warm turn stores). */
async function turn(tasks: TaskStore, push: PushNotificationStore): Promise<void> {
  const ref = { taskId: crypto.randomUUID(), contextId: "bench-context" };
  const task: Task = {
    id: ref.taskId,
    contextId: ref.contextId,
    status: {
      state: TaskState.TASK_STATE_SUBMITTED,
      message: undefined,
      timestamp: new Date().toISOString(),
    },
    history: [agentMessage(ref, [textPart("A prompt of a typical length. ".repeat(4))])],
    artifacts: [],
    metadata: {},
  };
  await tasks.save(task, context);
  await push.load(ref.taskId, context);
  const states = [
    TaskState.TASK_STATE_WORKING,
    ...Array<TaskState>(4).fill(TaskState.TASK_STATE_WORKING),
  ];
  for (const [i, state] of [...states, TaskState.TASK_STATE_COMPLETED].entries()) {
    const current = (await tasks.load(ref.taskId, context)) as Task;
    current.status = { state, message: undefined, timestamp: new Date().toISOString() };
    if (i > 0)
      current.artifacts = [
        artifact("response", "response", [textPart("chunk ".repeat(i * 10))], {}),
      ];
    await tasks.save(current, context);
    await push.load(ref.taskId, context);
  }
}

const dir = mkdtempSync(join(tmpdir(), "bench-store-turn-"));
try {
  const { db, statements } = await openDatabase({ type: "sqlite", file: join(dir, "tasks.db") });
  const before = {
    tasks: new DatabaseTaskStore(db),
    push: new DatabasePushNotificationStore(db),
  };
  const now = sqliteStores(db, statements, logger);
  const after = { tasks: now.taskStore, push: now.pushStore };
  const times = { before: [] as number[], after: [] as number[] };
  const cpuTimes = { before: [] as number[], after: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, s] of (r % 2 === 0
      ? [
          ["before", before],
          ["after", after],
        ]
      : [
          ["after", after],
          ["before", before],
        ]) as [keyof typeof times, typeof before][]) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      for (let i = 0; i < turns; i++) await turn(s.tasks, s.push);
      if (name === "after") await now.flush();
      const used = process.cpuUsage(cpu);
      times[name].push(((performance.now() - t) * 1000) / turns);
      cpuTimes[name].push((used.user + used.system) / turns);
    }
  }
  for (const [what, m] of [
    ["wall", times],
    ["CPU", cpuTimes],
  ] as const) {
    const b = median(m.before);
    const a = median(m.after);
    process.stdout.write(
      `store ${what} time per turn (7 events), median of ${rounds} rounds of ${turns}: before ${b.toFixed(0)} µs, after ${a.toFixed(0)} µs (${(a / b).toFixed(2)}×)\n`,
    );
  }
  await db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
