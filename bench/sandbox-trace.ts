/**
 * Where a sandboxed command's time goes (docs/BENCHMARKS.md, "Sandbox"): one server on the
 * scripted model with `claude.sandbox` (default "strict"; SANDBOX_TRACE_SANDBOX=<json> for
 * another), one warm conversation, then `strace -f` attached to its Claude Code process for a few
 * turns that each run one `echo` in Bash. Prints, per turn, every process the runtime started
 * (what it ran, when, how long it lived), relative to the turn's start. strace slows every traced
 * syscall, so the absolute figures are high: the shape (what runs, in what order, what waits on
 * what) is what it shows. `npx tsx bench/sandbox-trace.ts [turns]`; needs strace.
 */
import { spawn } from "node:child_process";
import { copyFile, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { ClientFactory } from "@a2a-js/sdk/client";
import type { ConfigInput } from "../src/config/schema.js";
import { freePort } from "../test/support/a2a/harness.js";
import { createRuntimeSandbox } from "../test/support/sandbox.js";
import {
  killSandboxProcesses,
  processesWithConfigDir,
  spawnServer,
  writeTestConfig,
} from "../test/support/server-process.js";
import { blockingTurn } from "./a2a.js";
import { startModelProcess } from "./model-process.js";
import { replaySteps, unescapeStrace } from "./sandbox-steps.js";
import { BASH_PROMPT } from "./model-rules.js";

interface Proc {
  pid: number;
  path: string;
  start: number;
  end?: number;
  argv: string[];
}

/** `HH:MM:SS.micro` to seconds since midnight. */
const seconds = (t: string): number => {
  const [h, m, s] = t.split(":").map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

const STRING = /^"((?:[^"\\]|\\.)*)"(\.\.\.)?/;

/** A successful `execve("path", ["argv0", ...], ...) = 0` line's path and argv. */
function execArgs(line: string): { path: string; argv: string[] } | undefined {
  if (!line.startsWith("execve(") || !/\) = 0$/.test(line)) return undefined;
  let rest = line.slice("execve(".length);
  const strings: string[] = [];
  for (;;) {
    const m = STRING.exec(rest);
    if (!m) break;
    strings.push(unescapeStrace(m[1] ?? ""));
    rest = rest.slice(m[0].length).replace(/^, \[?/, "");
    if (rest.startsWith("]")) break;
  }
  const [path, ...argv] = strings;
  return path === undefined ? undefined : { path, argv };
}

/** The processes of an `strace -f -tt -e trace=execve,exit_group` log, by pid. */
function processes(log: string): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const line of log.split("\n")) {
    const m = /^(\d+)\s+(\d\d:\d\d:\d\d\.\d+) (.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    const at = seconds(m[2] as string);
    const rest = m[3] as string;
    const exec = execArgs(rest);
    if (exec) {
      const known = procs.get(pid);
      // A process that execs again (a shell's `exec`) keeps its start, shows its last program.
      procs.set(pid, { pid, ...exec, start: known?.start ?? at });
    } else if (/^\+\+\+ exited with/.test(rest) || /^exit_group\(/.test(rest)) {
      const known = procs.get(pid);
      if (known) known.end = at;
    }
  }
  return procs;
}

const short = (argv: string[]): string => {
  const line = argv
    .map((a) => (a.length > 60 ? `${a.slice(0, 57)}…` : a))
    .join(" ")
    .replace(/\\n/g, "⏎");
  return line.length > 150 ? `${line.slice(0, 147)}…` : line;
};

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 3);
  const sandboxSetting = JSON.parse(process.env.SANDBOX_TRACE_SANDBOX ?? '"strict"') as NonNullable<
    ConfigInput["claude"]
  >["sandbox"];
  const model = await startModelProcess();
  const sandbox = await createRuntimeSandbox({ modelUrl: model.url });
  try {
    await writeTestConfig(sandbox.cwd, {
      claude: { permissionMode: "acceptEdits", sandbox: sandboxSetting },
    });
    const server = await spawnServer({
      built: true,
      cwd: sandbox.cwd,
      port: await freePort(),
      env: { ...sandbox.env, LOG_LEVEL: "warn" },
    });
    try {
      const client = await new ClientFactory().createFromUrl(server.url);
      const first = await blockingTurn(client, BASH_PROMPT);
      if (first.text !== "Ran it.") throw new Error(`the first turn did not run: ${first.text}`);
      const claude = (await processesWithConfigDir(sandbox.configDir)).filter(
        (p) => p !== server.pid,
      );
      const pid = Math.min(...claude);
      // The runtime's own binary: it runs again as rg and as apply-seccomp.
      const self = await readlink(`/proc/${pid}/exe`);
      const out = join(sandbox.root, "strace.log");
      const strace = spawn(
        "strace",
        ["-f", "-tt", "-s", "65536", "-e", "trace=execve,exit_group", "-o", out, "-p", String(pid)],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      let err = "";
      await new Promise<void>((resolve, reject) => {
        strace.stderr.on("data", (d: Buffer) => {
          err += d.toString();
          if (/attached/.test(err)) resolve();
        });
        strace.once("exit", () => reject(new Error(`strace: ${err}`)));
      });
      await delay(500);
      const marks: { wall: number; ms: number }[] = [];
      for (let i = 0; i < turns; i++) {
        const now = new Date();
        const wall =
          now.getUTCHours() * 3600 +
          now.getUTCMinutes() * 60 +
          now.getUTCSeconds() +
          now.getUTCMilliseconds() / 1000;
        const t0 = performance.now();
        const turn = await blockingTurn(client, BASH_PROMPT, first.contextId);
        marks.push({ wall, ms: performance.now() - t0 });
        if (turn.text !== "Ran it.") throw new Error(`turn ${i} did not run: ${turn.text}`);
        await delay(300);
      }
      strace.kill("SIGINT");
      await new Promise((resolve) => strace.once("exit", resolve));
      if (process.env.SANDBOX_TRACE_KEEP) await copyFile(out, process.env.SANDBOX_TRACE_KEEP);
      const procs = [...processes(await readFile(out, "utf8")).values()].sort(
        (a, b) => a.start - b.start,
      );
      marks.forEach((mark, i) => {
        const next = marks[i + 1]?.wall ?? Number.POSITIVE_INFINITY;
        console.log(`\nturn ${i + 1}: ${mark.ms.toFixed(0)} ms (traced)`);
        for (const p of procs.filter((q) => q.start >= mark.wall - 0.05 && q.start < next)) {
          const from = ((p.start - mark.wall) * 1000).toFixed(1).padStart(7);
          const life =
            p.end === undefined ? "      ?" : ((p.end - p.start) * 1000).toFixed(1).padStart(7);
          console.log(`${from} ms +${life} ms  [${p.pid}] ${short(p.argv)}`);
        }
      });
      if (process.env.SANDBOX_TRACE_FULL === "1") {
        for (const p of procs) console.log(`\n[${p.pid}] ${p.path} ${JSON.stringify(p.argv)}`);
      }
      const bwrap = procs.findLast((p) => p.argv[0] === "bwrap");
      if (bwrap !== undefined) {
        const rounds = Number(process.env.SANDBOX_TRACE_ROUNDS ?? 20);
        console.log(`\neach step alone, ${rounds} rounds interleaved (untraced):`);
        const lines = replaySteps(
          {
            bwrap,
            rg: procs.findLast((p) => p.argv[0] === "rg"),
            systemRg: process.env.SANDBOX_TRACE_RG,
            self,
          },
          rounds,
        );
        for (const line of lines) console.log(line);
      }
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
  } finally {
    await killSandboxProcesses(sandbox.configDir);
    await model.close();
    await sandbox.cleanup();
  }
}

await main();
