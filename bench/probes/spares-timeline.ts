/**
 * A probe, not a scenario: one server with `sessions.spares` (argv[2], default 1) on the
 * scripted model (in this process, so every request's arrival is timed), its debug log, and the
 * CPU of each of its Claude Code processes sampled every 10 ms; one-shot then warm turns, one
 * new conversation every 2 s. Prints a timeline: when each spare burns its start-up CPU against
 * the turns, and which model requests each turn makes. `npx tsx bench/probes/spares-timeline.ts 1`.
 */
import { readFileSync, readdirSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { ClientFactory } from "@a2a-js/sdk/client";
import { FakeModel } from "../../src/demo/fake-model/index.js";
import { freePort } from "../../test/support/a2a/harness.js";
import { createRuntimeSandbox } from "../../test/support/sandbox.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
} from "../../test/support/server-process.js";
import { streamingTurn } from "../a2a.js";
import rules from "../model-rules.js";
import { TURN_PROMPT } from "../rig.js";

const spares = Number(process.argv[2] ?? "1");
const rounds = Number(process.argv[3] ?? "6");
const extraEnv = JSON.parse(process.env.PROBE_ENV ?? "{}") as Record<string, string>;
const t0 = performance.now();
const at = () => Math.round(performance.now() - t0);
const events: [number, string][] = [];
const mark = (s: string) => events.push([at(), s]);

const model = await FakeModel.start({ rules });
// Every HTTP request the runtimes make, whatever its path or method.
(model as unknown as { server: Server }).server.prependListener(
  "request",
  (req: IncomingMessage) => {
    const when = at();
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      let what = "";
      try {
        const j = JSON.parse(body) as {
          system?: { text?: string }[];
          messages?: unknown[];
          max_tokens?: number;
        };
        const sys = Array.isArray(j.system) ? j.system.map((b) => b.text ?? "").join(" | ") : "";
        what = ` msgs=${j.messages?.length} max_tokens=${j.max_tokens} sys=${JSON.stringify(sys.slice(0, 90))}`;
      } catch {
        what = ` body=${body.length}B`;
      }
      events.push([when, `model ← ${req.method} ${req.url}${what}`]);
    });
  },
);
const sandbox = await createRuntimeSandbox({ modelUrl: model.url, extraEnv });
await writeTestConfig(sandbox.cwd, {
  sessions: { spares, maxLive: 32, minIdleBeforeEvictMs: 0 },
  claude: { isolation: "shared" },
});
const server = await spawnServer({
  built: true,
  cwd: sandbox.cwd,
  port: await freePort(),
  env: { ...sandbox.env, LOG_LEVEL: "debug" },
});
const client = await new ClientFactory().createFromUrl(server.url);

// CPU (ticks of 10 ms) of each child of the server, sampled every 10 ms.
const cpu = new Map<
  number,
  { first: number; last: number; ticks: number; busy: [number, number][] }
>();
let sampling = true;
const children = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
      readFileSync(`/proc/${pid}/task/${t}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
};
const sampler = (async () => {
  while (sampling) {
    for (const pid of children(server.pid)) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        const ticks = Number(f[11]) + Number(f[12]);
        const now = at();
        const c = cpu.get(pid) ?? { first: now, last: now, ticks: 0, busy: [] };
        if (ticks > c.ticks) c.busy.push([now, ticks - c.ticks]);
        c.ticks = ticks;
        c.last = now;
        cpu.set(pid, c);
      } catch {
        // gone
      }
    }
    await delay(10);
  }
})();

let log = "";
const logAt = new Map<string, number>();
const serverStart = Date.now() - at();
const collectLog = () => {
  const out = server.stdout();
  for (const line of out.slice(log.length).split("\n")) {
    try {
      const j = JSON.parse(line) as {
        time: number;
        msg: string;
        spare?: string;
        reason?: string;
        pid?: number;
      };
      if (/spare|query started|session:|turn|run/.test(j.msg))
        events.push([
          j.time - serverStart,
          `server: ${j.msg}${j.spare ? ` ${j.spare}` : ""}${j.reason ? ` (${j.reason})` : ""}`,
        ]);
    } catch {
      // not JSON
    }
  }
  log = out;
  void logAt;
};

await delay(4_000);
const warmCtx = (await streamingTurn(client, TURN_PROMPT)).contextId;
await delay(3_000);
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  mark(`one-shot ${r} sent`);
  const one = await streamingTurn(client, TURN_PROMPT);
  mark(
    `one-shot ${r} final (first chunk ${Math.round(one.firstChunkMs)}, final ${Math.round(one.finalMs)})`,
  );
  mark(`warm ${r} sent`);
  const warm = await streamingTurn(client, TURN_PROMPT, warmCtx);
  mark(`warm ${r} final ${Math.round(warm.finalMs)}`);
  await delay(Math.max(0, 2_000 - (performance.now() - start)));
}
await delay(1_500);
sampling = false;
await sampler;
collectLog();
for (const [pid, c] of cpu) {
  // Bursts: runs of busy samples less than 50 ms apart.
  const bursts: string[] = [];
  let from = -1;
  let to = -1;
  let sum = 0;
  for (const [t, d] of c.busy) {
    if (from < 0 || t - to > 50) {
      if (from >= 0) bursts.push(`${from}–${to} ms: ${sum * 10} ms CPU`);
      from = t;
      sum = 0;
    }
    to = t;
    sum += d;
  }
  if (from >= 0) bursts.push(`${from}–${to} ms: ${sum * 10} ms CPU`);
  events.push([
    c.first,
    `pid ${pid} seen (total ${c.ticks * 10} ms CPU); bursts: ${bursts.join("; ")}`,
  ]);
  for (const [t, d] of c.busy) events.push([t, `  cpu pid ${pid} +${d * 10} ms`]);
}
events.sort((a, b) => a[0] - b[0]);
const verbose = process.env.PROBE_VERBOSE === "1";
for (const [t, s] of events)
  if (verbose || !s.startsWith("  cpu")) console.log(String(t).padStart(6), s);
server.kill("SIGTERM");
await server.exited;
await killSandboxProcesses(sandbox.configDir);
await model.close();
await sandbox.cleanup();
