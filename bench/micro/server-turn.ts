/**
 * The server CPU of a warm turn, two builds side by side, with only Claude Code taken out: each
 * build's whole server (`server-turn-server.ts`: `startServer`, its production logger, SQLite,
 * replay where the build has it) in a process of its own, its Claude Code replaced by a scripted
 * runtime that answers as the real one answers a short turn. Driven from here over 127.0.0.1 by
 * the SDK's client, one warm conversation per server, blocking and streaming turns in turn, in
 * blocks interleaved between the builds (before, after, after, before, ...). A server's CPU is
 * read from `/proc/<pid>/task/*\/schedstat` (every thread) around each block, so the client's
 * work is not counted. Prints each side's median CPU per turn and the median of the per-round
 * ratios (after ÷ before, the blocks of one round run back to back). `SERVER_TURN_NODE_FLAGS`
 * are given to both servers' node (`--cpu-prof --cpu-prof-dir=<dir>`: a V8 profile of each).
 *
 *   npm run build && npx tsx bench/micro/server-turn.ts <before checkout> [rounds=15] [turns=30]
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { TaskState, type AgentCard } from "@a2a-js/sdk";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";
import { median } from "../stats.js";

const [before = "", ...rest] = process.argv.slice(2);
const [rounds = 15, turns = 30] = rest.map(Number);
if (before === "") throw new Error("usage: server-turn.ts <before checkout> [rounds] [turns]");
// The compare scenario's sessions, spares off (a spare would be a second scripted query); an
// earlier build gets only the keys its config schema names (`server-turn-server.ts`).
const SESSIONS = { maxLive: 16, idleTimeoutMs: 600_000, minIdleBeforeEvictMs: 0 };
/** Node flags of both servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` (a profile each at exit). */
const flags = (process.env.SERVER_TURN_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
const CONFIGS = {
  before: { sessions: { ...SESSIONS, spares: 0 } },
  after: { sessions: { ...SESSIONS, spares: 0 } },
};

interface Side {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly client: Client;
  contextId: string | undefined;
}

async function start(root: string, config: object): Promise<Side> {
  const child = fork(
    resolve(import.meta.dirname, "server-turn-server.ts"),
    [root, JSON.stringify(config)],
    {
      execArgv: ["--import", "tsx", ...flags],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  // The log lines go to a pipe, as a supervised server's do; read and dropped.
  child.stdout?.resume();
  const [message] = (await once(child, "message")) as [{ url: string }];
  const card = (await (
    await fetch(`${message.url}/.well-known/agent-card.json`)
  ).json()) as AgentCard;
  const client = await new ClientFactory().createFromAgentCard(card);
  return { child, pid: child.pid as number, client, contextId: undefined };
}

/** CPU time (ns) of every thread of `pid`. */
function cpuNs(pid: number): number {
  let all = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      all += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended in between.
    }
  }
  return all;
}

async function turn(s: Side, streaming: boolean): Promise<void> {
  const request = sendRequest(userMessage("Say hello.", { contextId: s.contextId }));
  if (streaming) {
    let state: TaskState | undefined;
    for await (const e of s.client.sendMessageStream(request)) {
      if (e.payload?.$case === "task") s.contextId = e.payload.value.contextId;
      if (e.payload?.$case === "statusUpdate") state = e.payload.value.status?.state;
    }
    if (state !== TaskState.TASK_STATE_COMPLETED) throw new Error("the turn did not complete");
    return;
  }
  const result = await s.client.sendMessage(request);
  if (!("status" in result) || result.status?.state !== TaskState.TASK_STATE_COMPLETED) {
    throw new Error("the turn did not complete");
  }
  s.contextId = result.contextId;
}

type Name = keyof typeof CONFIGS;
const sides: Record<Name, Side> = {
  before: await start(before, CONFIGS.before),
  after: await start(resolve(import.meta.dirname, "..", ".."), CONFIGS.after),
};
const cpu: Record<Name, number[]> = { before: [], after: [] };
try {
  for (let round = -2; round < rounds; round++) {
    const order: Name[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
    for (const name of order) {
      const side = sides[name];
      const began = cpuNs(side.pid);
      for (let i = 0; i < turns; i++) await turn(side, i % 2 === 1);
      // The server's last writes of the block (the write-behind store, the replay log) land in it.
      await new Promise((done) => setTimeout(done, 1_100));
      if (round >= 0) cpu[name].push((cpuNs(side.pid) - began) / 1e6 / turns);
    }
  }
} finally {
  for (const side of Object.values(sides)) {
    side.child.send("exit");
    await once(side.child, "exit");
  }
}
const ratios = cpu.after.map((a, i) => a / (cpu.before[i] ?? Number.NaN));
console.log(
  `before ${median(cpu.before).toFixed(3)} ms CPU per turn, after ${median(cpu.after).toFixed(3)} ms` +
    ` (${median(ratios).toFixed(2)}× paired, ${rounds} rounds of ${turns} turns)`,
);
