/**
 * Preloaded into a server by `spares-path.ts` (`node --import`): a trace on the server's own clock.
 * `globalThis.__pt(label)` records the wall time (ms), the process's CPU (µs, all its threads) and
 * the label; every HTTP request (but `/healthz`), each write of its response and its end are
 * marked by themselves. Written to `PT_OUT` (tab-separated) when the server exits; its first line
 * pairs the wall clock with the monotonic one (a V8 CPU profile's), to line a profile up.
 */
import http from "node:http";
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { Buffer } from "node:buffer";

const out = process.env.PT_OUT;
const wall = () => (performance.timeOrigin + performance.now()).toFixed(3);
const marks = [`${wall()}\t0\t0\tclock ${Number(process.hrtime.bigint()) / 1e6}`];
let requests = 0;
globalThis.__pt = (label) => {
  const c = process.cpuUsage();
  marks.push(`${wall()}\t${c.user + c.system}\t${requests}\t${label}`);
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === "request") {
    const [req, res] = args;
    if (!String(req.url).startsWith("/healthz")) {
      const n = ++requests;
      globalThis.__pt(`http in ${req.method} ${req.url} #${n}`);
      res.on("finish", () => globalThis.__pt(`http finish #${n}`));
      res.__traceId = n;
    }
  }
  return emit.call(this, event, ...args);
};

/** What an SSE write carries, roughly: enough to tell the steps apart. */
function kindOf(chunk) {
  const s = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString() : "";
  if (/"artifactUpdate"|"artifact-update"/.test(s)) return "artifact";
  if (/"statusUpdate"|"status-update"/.test(s)) {
    return `status ${(/"state":"([A-Z_a-z-]+)"/.exec(s) ?? [])[1]}`;
  }
  return /"task"/.test(s) ? "task" : `${s.length}B`;
}

const write = http.ServerResponse.prototype.write;
http.ServerResponse.prototype.write = function (chunk, ...rest) {
  if (this.__traceId !== undefined)
    globalThis.__pt(`http write #${this.__traceId} ${kindOf(chunk)}`);
  return write.call(this, chunk, ...rest);
};

process.on("exit", () => {
  if (out) writeFileSync(out, `${marks.join("\n")}\n`);
});
