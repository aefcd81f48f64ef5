/**
 * In-process, interleaved: the server's own work for one short turn between the request handler
 * and the database, as two builds do it (their compiled `dist/`): the guarded request handler
 * (the SDK's handler: result manager, event bus, push sender), the task store stack the server
 * runs (exchanged history, terminal guard, write-behind SQLite) and the cached push configs. A
 * fake executor publishes what a warm 5-chunk turn publishes (task, working, three text
 * artifacts, the result status, completed); no HTTP, no Claude Code. Prints the median CPU time
 * per turn (process.cpuUsage over blocks of turns), blocking and streaming, of each build.
 *
 *   npx tsx bench/micro/handler-turn.ts <before checkout> [rounds=9] [turns per block=150]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Role, TaskState, type Message } from "@a2a-js/sdk";
import { ServerCallContext, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import type * as Bus from "../../src/a2a/channel/bus-manager.js";
import type * as Stores from "../../src/store/task-stores.js";
import type * as Terminal from "../../src/store/terminal-task-store.js";
import type * as Exchanged from "../../src/store/exchanged-history-store.js";
import type * as Push from "../../src/a2a/push/sender.js";
import type * as Card from "../../src/a2a/card/agent-card.js";
import type * as Config from "../../src/config/load.js";
import type * as Messages from "../../src/contract/messages.js";
import type * as Statuses from "../../src/contract/statuses.js";
import type * as Usage from "../../src/contract/usage.js";
import { median } from "../stats.js";
import { builtPath } from "./built-path.js";
import { guardedHandlerOf } from "./guarded-handler.js";

const [before = "", ...rest] = process.argv.slice(2);
const [rounds = 9, turns = 150] = rest.map(Number);
if (before === "") throw new Error("usage: handler-turn.ts <before checkout> [rounds] [turns]");
const logger = pino({ level: "silent" });
const dirs: string[] = [];

/** A module of a build, typed as this checkout's source declares it. */
const load = <T>(root: string, path: string): Promise<T> =>
  import(builtPath(root, path)) as Promise<T>;

async function build(root: string) {
  const [bus, stores, terminal, exchanged, push, card, config, messages, statuses, usage] =
    await Promise.all([
      load<typeof Bus>(root, "a2a/channel/bus-manager.js"),
      load<typeof Stores>(root, "store/task-stores.js"),
      load<typeof Terminal>(root, "store/terminal-task-store.js"),
      load<typeof Exchanged>(root, "store/exchanged-history-store.js"),
      load<typeof Push>(root, "a2a/push/sender.js"),
      load<typeof Card>(root, "a2a/card/agent-card.js"),
      load<typeof Config>(root, "config/load.js"),
      load<typeof Messages>(root, "contract/messages.js"),
      load<typeof Statuses>(root, "contract/statuses.js"),
      load<typeof Usage>(root, "contract/usage.js"),
    ]);
  const cwd = mkdtempSync(join(tmpdir(), "handler-turn-"));
  dirs.push(cwd);
  const cfg = config.resolveConfig({}, { file: join(cwd, "c.json"), startDir: cwd });
  const opened = await stores.openTaskStores({ store: cfg.store, cwd, logger });
  const taskStore = new exchanged.ExchangedHistoryStore(
    new terminal.TerminalTaskStore(opened.taskStore, logger),
  );
  const sender = new push.RetryingPushSender(opened.pushStore, logger);
  const ref = (ctx: RequestContext) => ({ taskId: ctx.taskId, contextId: ctx.contextId });
  const executor = {
    isActive: () => false,
    liveState: () => undefined,
    claimAnswer: () => undefined,
    releaseClaim: () => undefined,
    takeRefusal: () => undefined,
    cancelTask: () => Promise.resolve(),
    // What a warm turn publishes; the model's time is one macrotask between working and text.
    execute: async (ctx: RequestContext, b: ExecutionEventBus) => {
      const r = ref(ctx);
      b.publish({ kind: "task", data: messages.newTask(r, ctx.userMessage) });
      b.publish({ kind: "statusUpdate", data: statuses.status.working(r) });
      await new Promise((done) => setImmediate(done));
      const chunks = ["Hello", " from the", " scripted model."];
      chunks.forEach((chunk, i) => {
        const artifact = messages.artifact(
          `response-${r.taskId}`,
          "response",
          [messages.textPart(chunk)],
          {},
        );
        b.publish({
          kind: "artifactUpdate",
          data: { ...r, artifact, append: i > 0, lastChunk: false, metadata: undefined },
        });
      });
      b.publish({ kind: "statusUpdate", data: statuses.status.result(r, chunks.join("")) });
      const completed = statuses.status.completed(r);
      b.publish({
        kind: "statusUpdate",
        data: { ...completed, metadata: usage.usageMetadata(usage.EMPTY_USAGE) },
      });
    },
  };
  const agentCard = card.buildAgentCard(cfg, { version: "0.0.0" });
  const h = await guardedHandlerOf(root, {
    card: agentCard,
    taskStore,
    executor,
    busManager: new bus.TaskBusManager(() => false),
    pushStore: opened.pushStore,
    pushSender: sender,
  });
  const context = new ServerCallContext();
  const message = (): Message => ({
    messageId: crypto.randomUUID(),
    contextId: "bench-context",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: "text", value: "Say hello." },
        mediaType: "",
        filename: "",
        metadata: {},
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
  const request = () => ({
    tenant: "",
    message: message(),
    configuration: undefined,
    metadata: undefined,
  });
  return {
    blocking: async () => {
      const task = await h.sendMessage(request(), context);
      if (!("status" in task) || task.status?.state !== TaskState.TASK_STATE_COMPLETED) {
        throw new Error("the turn did not complete");
      }
    },
    streaming: async () => {
      for await (const _ of h.sendMessageStream(request(), context));
    },
    close: () => opened.close(),
  };
}

const sides = {
  before: await build(before),
  after: await build(resolve(import.meta.dirname, "..", "..")),
};
type Side = keyof typeof sides;
const cpu = new Map<string, number[]>();
for (let round = -1; round < rounds; round++) {
  const order: Side[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const side of order) {
    for (const kind of ["blocking", "streaming"] as const) {
      const start = process.cpuUsage();
      for (let i = 0; i < turns; i++) await sides[side][kind]();
      const used = process.cpuUsage(start);
      const key = `${kind} ${side}`;
      if (round >= 0) cpu.set(key, [...(cpu.get(key) ?? []), (used.user + used.system) / turns]);
    }
  }
}
for (const kind of ["blocking", "streaming"]) {
  const b = median(cpu.get(`${kind} before`) ?? []);
  const a = median(cpu.get(`${kind} after`) ?? []);
  console.log(
    `${kind}: before ${b.toFixed(0)} µs CPU/turn, after ${a.toFixed(0)} µs (${(a / b).toFixed(2)}×)`,
  );
}
await sides.before.close();
await sides.after.close();
for (const d of dirs) rmSync(d, { recursive: true, force: true });
