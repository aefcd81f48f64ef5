/**
 * Preloaded into a bench's server (`node --expose-gc --import`): on SIGUSR2 it collects garbage,
 * then appends one JSON line to `MEMORY_PROBE_OUT`: `process.memoryUsage()` (RSS before and after
 * the collection, the JS heap) and the V8 heap's spaces. RSS read without a collection swings by
 * tens of MB with V8's heap sizing; after one, what is left is what the server holds.
 * `MEMORY_PROBE_SNAPSHOTS=<dir>`: a heap snapshot there too, after the collection.
 * `MEMORY_PROBE_SQLITE_CACHE_KIB` sets every SQLite connection's page cache to that size instead
 * of the server's own, to tell the page cache apart from the rest (`bench/probes/memory-growth.ts`).
 */
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import process from "node:process";
import v8 from "node:v8";

const out = process.env.MEMORY_PROBE_OUT;
const snapshots = process.env.MEMORY_PROBE_SNAPSHOTS;
let marks = 0;
process.on("SIGUSR2", () => {
  marks++;
  const rssBefore = process.memoryUsage.rss();
  // Several passes: a weak reference or a finalizer can hold memory for one more.
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]),
  );
  if (snapshots) v8.writeHeapSnapshot(join(snapshots, `mark-${marks}.heapsnapshot`));
  if (out)
    appendFileSync(out, `${JSON.stringify({ rssBefore, ...process.memoryUsage(), spaces })}\n`);
});

const cacheKib = process.env.MEMORY_PROBE_SQLITE_CACHE_KIB;
if (cacheKib) {
  // The server's own copy of the module, resolved from its entry point. Its prototype is changed,
  // not the loader's cache entry: an ES module's import of it does not read that entry (replacing
  // the export there left every connection at the server's own size, unnoticed until a native
  // heap profile showed SQLite's page cache past the size asked for).
  const require = createRequire(process.argv[1] ?? import.meta.url);
  const Database = require(require.resolve("better-sqlite3"));
  const pragma = Database.prototype.pragma;
  Database.prototype.pragma = function sized(source, options) {
    const text = /^\s*cache_size\s*=/.test(source) ? `cache_size = -${cacheKib}` : source;
    return pragma.call(this, text, options);
  };
}
