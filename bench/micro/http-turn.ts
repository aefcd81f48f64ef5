/**
 * The server CPU of one warm turn over real HTTP, without Claude: two builds' HTTP apps, each in
 * a server process of its own (`http-turn-server.ts`: the build's `createHttpApp` in front of
 * its request handler and store, a fake executor publishing a warm turn's 7 events), driven
 * from this process by the SDK's client over 127.0.0.1, one turn at a time, blocking
 * `SendMessage` and `SendStreamingMessage` (SSE), in blocks interleaved between the builds.
 * The server's CPU is read from `/proc/<pid>/task/<tid>/schedstat` (ns, every thread; and its main
 * thread alone) around each block, so the client's own work is not counted. Prints the medians
 * per turn. Each round starts a new pair of servers (`HTTP_TURN_FRESH=0`: one pair for the whole
 * run) and warms them up with an unmeasured block. With `HTTP_TURN_PROFILE=<file>`, one server (`HTTP_TURN_PROFILE_SIDE`, default
 * "after") runs V8's CPU profiler over the measured rounds (not the warm-up) and writes it there
 * (its CPU figures then include the profiler's: read that run for the profile only).
 * `HTTP_TURN_NODE_FLAGS` are given to both servers' node. `HTTP_TURN_AFTER_APP=<file>`: the
 * "after" server runs that module's `createHttpApp` (an ablation of the app, same options).
 *
 *   npx tsx bench/micro/http-turn.ts <before checkout> [rounds=9] [turns per block=100]
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { transformSync } from "esbuild";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { TaskState, type AgentCard } from "@a2a-js/sdk";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";
import { median } from "../stats.js";

const [before = "", ...rest] = process.argv.slice(2);
const [rounds = 9, turns = 100] = rest.map(Number);
if (before === "") throw new Error("usage: http-turn.ts <before checkout> [rounds] [turns]");
const profileFile = process.env.HTTP_TURN_PROFILE;
const profiled = process.env.HTTP_TURN_PROFILE_SIDE ?? "after";

// The server as plain JavaScript, run by node alone as the real server is (no tsx hooks).
const scratch = mkdtempSync(join(tmpdir(), "http-turn-"));
const serverJs = join(scratch, "http-turn-server.js");
// The server's own local imports go with it; their `.js` are modules, as in the checkout.
writeFileSync(join(scratch, "package.json"), '{ "type": "module" }\n');
for (const name of ["http-turn-server", "built-path", "guarded-handler"]) {
  const source = readFileSync(resolve(import.meta.dirname, `${name}.ts`), "utf8");
  const js = transformSync(source, { loader: "ts", format: "esm" }).code;
  writeFileSync(join(scratch, `${name}.js`), js);
}

interface Side {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly client: Client;
  readonly contextId: string;
  readonly url: string;
}

async function start(root: string, profile: boolean, app?: string): Promise<Side> {
  const child = fork(serverJs, [root, ...(app === undefined ? [] : [app])], {
    // E.g. `--perf-basic-prof`, to read a `perf record -p <pid>` of a server.
    execArgv: (process.env.HTTP_TURN_NODE_FLAGS ?? "").split(" ").filter((f) => f !== ""),
    env: { ...process.env, ...(profile && { HTTP_TURN_PROFILE_FILE: profileFile }) },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  // The log lines go to a pipe, as the server's do under a supervisor; read and dropped.
  child.stdout?.resume();
  const [message] = (await once(child, "message")) as [{ url: string }];
  const res = await fetch(`${message.url}/.well-known/agent-card.json`);
  const card = (await res.json()) as AgentCard;
  const client = await new ClientFactory().createFromAgentCard(card);
  return {
    child,
    pid: child.pid as number,
    client,
    contextId: crypto.randomUUID(),
    url: message.url,
  };
}

/** CPU time (ns) of every thread of `pid`, and of its main thread. */
function cpuNs(pid: number): { all: number; main: number } {
  let all = 0;
  let main = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let ns = 0;
    try {
      ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      continue; // the thread ended in between
    }
    all += ns;
    if (tid === String(pid)) main = ns;
  }
  return { all, main };
}

const turn = {
  // For scale: the cheapest request there is (a JSON answer, the request line).
  healthz: async (s: Side) => {
    const res = await fetch(`${s.url}/healthz`);
    if (res.status !== 200) throw new Error(`/healthz: ${res.status}`);
    await res.arrayBuffer();
  },
  blocking: async (s: Side) => {
    const result = await s.client.sendMessage(
      sendRequest(userMessage("Say hello.", { contextId: s.contextId })),
    );
    if (!("status" in result) || result.status?.state !== TaskState.TASK_STATE_COMPLETED) {
      throw new Error("the turn did not complete");
    }
  },
  streaming: async (s: Side) => {
    let events = 0;
    const request = sendRequest(userMessage("Say hello.", { contextId: s.contextId }));
    for await (const _ of s.client.sendMessageStream(request)) events++;
    if (events !== 7) throw new Error(`7 events expected, got ${events}`);
  },
};
type Kind = keyof typeof turn;

const afterRoot = resolve(import.meta.dirname, "..", "..");
type Name = "before" | "after";
/** Both servers, started afresh (a process's own JIT and heap luck differs by ±15 %). */
async function startBoth(): Promise<Record<Name, Side>> {
  const sides = {
    before: await start(resolve(before), profileFile !== undefined && profiled === "before"),
    after: await start(
      afterRoot,
      profileFile !== undefined && profiled === "after",
      process.env.HTTP_TURN_AFTER_APP,
    ),
  };
  console.log(`servers: before pid ${sides.before.pid}, after pid ${sides.after.pid}`);
  return sides;
}
async function stopBoth(sides: Record<Name, Side>): Promise<void> {
  for (const side of Object.values(sides)) {
    side.child.send("exit");
    await once(side.child, "exit");
  }
}
// A new pair of servers every round, unless profiling (one profile of one process).
const fresh = profileFile === undefined && process.env.HTTP_TURN_FRESH !== "0";
let sides = await startBoth();
const samples = new Map<string, number[]>();
const add = (key: string, v: number) => samples.set(key, [...(samples.get(key) ?? []), v]);
for (let round = -1; round < rounds; round++) {
  if (round === 0 && profileFile !== undefined) sides[profiled as Name].child.send("profile");
  if (fresh && round > 0) {
    await stopBoth(sides);
    sides = await startBoth();
  }
  const order: Name[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  // A fresh server's first block warms it up, unmeasured.
  const blocks = fresh && round >= 0 ? [true, false] : [round < 0];
  for (const warmUp of blocks) {
    for (const name of order) {
      for (const kind of Object.keys(turn) as Kind[]) {
        const side = sides[name];
        const begin = cpuNs(side.pid);
        for (let i = 0; i < turns; i++) await turn[kind](side);
        const end = cpuNs(side.pid);
        if (warmUp) continue;
        add(`${kind} ${name} all`, (end.all - begin.all) / turns / 1000);
        add(`${kind} ${name} main`, (end.main - begin.main) / turns / 1000);
      }
    }
  }
}
await stopBoth(sides);
for (const kind of Object.keys(turn)) {
  for (const thread of ["all", "main"]) {
    const b = median(samples.get(`${kind} before ${thread}`) ?? []);
    const a = median(samples.get(`${kind} after ${thread}`) ?? []);
    console.log(
      `${kind} (${thread === "all" ? "all threads" : "main thread"}): ` +
        `before ${b.toFixed(0)} µs server CPU/turn, after ${a.toFixed(0)} µs (${(a / b).toFixed(2)}×)`,
    );
  }
}
rmSync(scratch, { recursive: true, force: true });
