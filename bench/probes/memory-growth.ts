/**
 * Where the server's memory goes over a long conversation (issue 52 item 4): a server on the
 * scripted model, with `bench/memory-probe.js` preloaded, runs one conversation of MEM_TURNS
 * turns; at each of MEM_AT's turn counts it is asked (SIGUSR2) to collect garbage and write its
 * memory to MEMORY_PROBE_OUT (JSON lines). Prints RSS and the store's file size per mark.
 *   MEM_STORE=memory            the memory store instead of SQLite
 *   MEMORY_PROBE_SQLITE_CACHE_KIB=2000   SQLite's page cache at that size (the server's: 32 MB)
 *   MALLOC_ARENA_MAX=2          passed to the server (fragmentation against retention)
 *   MEMORY_PROBE_SNAPSHOTS=<dir>         also a heap snapshot per mark there, to diff
 *   MEM_HEAPTRACK=<file or fifo> the server runs with heaptrack's preload writing its raw trace
 *                               there (native allocations), and is killed at the end (SIGKILL), so
 *                               what it still holds shows as "leaked": run
 *                               `/usr/lib/heaptrack/libexec/heaptrack_interpret < raw | zstd >
 *                               t.zst`, then `heaptrack_print -l t.zst`; diff two lengths' leaks
 * Run: `npx tsx bench/probes/memory-growth.ts` after `npm run build`.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { ClientFactory } from "@a2a-js/sdk/client";
import { blockingTurn } from "../a2a.js";
import { startModelProcess } from "../model-process.js";
import { rssMb } from "../proc.js";
import { TURN_PROMPT } from "../model-rules.js";
import { createRuntimeSandbox } from "../../test/support/sandbox.js";
import { freePort } from "../../test/support/a2a/harness.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
} from "../../test/support/server-process.js";

const PROBE = fileURLToPath(new URL("../memory-probe.js", import.meta.url));
const turns = Number(process.env.MEM_TURNS ?? "1000");
const marks = (process.env.MEM_AT ?? "10,200,1000").split(",").map(Number);
const out = process.env.MEMORY_PROBE_OUT ?? "/tmp/memory-probe.jsonl";
const model = await startModelProcess();
const sandbox = await createRuntimeSandbox({ modelUrl: model.url });
try {
  await writeTestConfig(sandbox.cwd, {
    sessions: { maxLive: 16, idleTimeoutMs: 600_000, minIdleBeforeEvictMs: 0 },
    ...(process.env.MEM_STORE === "memory" && { store: { type: "memory" as const } }),
  });
  const passed: Record<string, string> = { MEMORY_PROBE_OUT: out };
  for (const k of ["MEMORY_PROBE_SQLITE_CACHE_KIB", "MEMORY_PROBE_SNAPSHOTS", "MALLOC_ARENA_MAX"]) {
    const v = process.env[k];
    if (v !== undefined) passed[k] = v;
  }
  const heaptrack = process.env.MEM_HEAPTRACK;
  if (heaptrack !== undefined) {
    passed.LD_PRELOAD = "/usr/lib/heaptrack/libheaptrack_preload.so";
    passed.DUMP_HEAPTRACK_OUTPUT = heaptrack;
  }
  const server = await spawnServer({
    built: true,
    cwd: sandbox.cwd,
    port: await freePort(),
    env: { ...sandbox.env, ...passed, LOG_LEVEL: "warn" },
    nodeArgs: ["--expose-gc", "--import", PROBE],
  });
  try {
    const client = await new ClientFactory().createFromUrl(server.url);
    const { contextId } = await blockingTurn(client, TURN_PROMPT);
    let lines = (await readFile(out, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
    for (let turn = 1; turn <= turns; turn++) {
      if (marks.includes(turn)) {
        process.kill(server.pid, "SIGUSR2");
        for (;;) {
          const text = await readFile(out, "utf8").catch(() => "");
          if (text.split("\n").filter(Boolean).length > lines) break;
          await delay(200);
        }
        lines++;
        const db = await dbMb(sandbox.cwd);
        const maps = await mappedRss(server.pid);
        console.log(
          `turn ${turn}: rss ${(await rssMb(server.pid)).toFixed(1)} MB (${maps}), db ${db} MB`,
        );
      }
      if (turn < turns) await blockingTurn(client, TURN_PROMPT, contextId);
    }
    // Killed, not stopped: what the server still holds is then heaptrack's "leaked".
    if (heaptrack !== undefined) server.kill("SIGKILL");
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
} finally {
  await killSandboxProcesses(sandbox.configDir);
  await sandbox.cleanup();
  await model.close();
}

/** The SQLite store's file and its write-ahead log, in MB. */
async function dbMb(cwd: string): Promise<string> {
  const size = async (f: string) => (await stat(join(cwd, f)).catch(() => ({ size: 0 }))).size;
  const [db, wal] = await Promise.all([
    size(".claude/claude-a2a.db"),
    size(".claude/claude-a2a.db-wal"),
  ]);
  return `${(db / 2 ** 20).toFixed(1)} + wal ${(wal / 2 ** 20).toFixed(1)}`;
}

/**
 * Resident memory by mapping, from `/proc/<pid>/smaps`: `[heap]` is the main thread's malloc
 * (SQLite's pages, native buffers), `anon` V8's heap and other threads' malloc arenas.
 */
async function mappedRss(pid: number): Promise<string> {
  const text = await readFile(`/proc/${pid}/smaps`, "latin1");
  const kb = new Map<string, number>();
  let name = "";
  for (const line of text.split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) name = head[1] === "" ? "anon" : (head[1] ?? "");
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && (name === "[heap]" || name === "anon")) {
      kb.set(name, (kb.get(name) ?? 0) + Number(rss[1]));
    }
  }
  return [...kb].map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}`).join(", ");
}
