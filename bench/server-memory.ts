/**
 * A server's memory after a garbage collection, read through `bench/memory-probe.js` preloaded
 * into it: RSS alone swings by tens of MB as V8 sizes its heap (a server's RSS after 2,000 turns
 * was once lower than after 10), so growth is read after a collection, the JS heap apart from
 * the rest (native: SQLite's page cache, buffers, code).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { ServerExtras } from "./rig.js";

const PROBE = fileURLToPath(new URL("./memory-probe.js", import.meta.url));
const MB = 2 ** 20;

export interface MemoryReading {
  /** Resident memory after the collection. */
  readonly rssMb: number;
  /** What the JS heap's objects hold after it. */
  readonly heapUsedMb: number;
  /** RSS less the heap V8 has committed: native memory (SQLite, buffers, the runtime itself). */
  readonly outsideHeapMb: number;
}

export interface MemoryProbe {
  /** What the server is started with (`rig.extraServer`'s `extra`). */
  readonly extras: ServerExtras;
  /** Has the server collect garbage and report; waits for its report (bounded). */
  read(pid: number): Promise<MemoryReading>;
}

/** A probe whose reports go to a file in `dir`. */
export function memoryProbe(dir: string): MemoryProbe {
  const out = join(dir, "memory-probe.jsonl");
  const lines = async () =>
    (await readFile(out, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
  return {
    extras: { nodeArgs: ["--expose-gc", "--import", PROBE], env: { MEMORY_PROBE_OUT: out } },
    async read(pid) {
      const before = (await lines()).length;
      process.kill(pid, "SIGUSR2");
      for (let waited = 0; ; waited += 100) {
        const now = await lines();
        const last = now.length > before ? now.at(-1) : undefined;
        if (last !== undefined) return reading(JSON.parse(last) as Report);
        if (waited > 60_000) throw new Error("bench: the server did not report its memory");
        await delay(100);
      }
    },
  };
}

interface Report {
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
}

const reading = (r: Report): MemoryReading => ({
  rssMb: r.rss / MB,
  heapUsedMb: r.heapUsed / MB,
  outsideHeapMb: (r.rss - r.heapTotal) / MB,
});
