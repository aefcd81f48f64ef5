/**
 * Turns `perf script` output (a `perf record -g -p <pid>` of a node started with
 * `--perf-basic-prof`) into a V8 `.cpuprofile`, for `bench/profile-summary.ts`. Unlike V8's own
 * profiler, which samples the wall clock (a thread preempted inside a syscall, e.g. a socket
 * write that woke the client, is charged to that syscall), perf samples CPU time only, kernel
 * included: the breakdown is of the CPU the server used.
 *
 *   perf script -F comm,pid,tid,time,ip,sym,dso -i perf.data \
 *     | npx tsx bench/perf-to-cpuprofile.ts <out.cpuprofile> [main|all=main] [from s=0] [pid]
 *
 * `main` keeps the main thread's samples (the thread whose id is the process id); `all` keeps
 * every thread's, each under a root frame naming its thread. Only process `pid`'s (default: the
 * first sample's; `perf record -p` also follows the processes it starts), from `from` seconds
 * after the first sample on (e.g. past the server's startup).
 */
import { createInterface } from "node:readline";
import { writeFileSync } from "node:fs";

export interface Frame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

/** A GC frame of V8's (any of them on a stack makes the sample GC, as V8's profiler says). */
const GC = /v8::internal::(Heap::|Scavenge|MarkCompact|MinorMarkSweep|ConcurrentMarking)/;

/**
 * One `perf script` frame line (`<addr> <symbol>+0x<off> (<dso>)`) as a profile frame: a JS
 * frame from the perf map (`JS:*name url:line:col`), or a native one named by its symbol (a
 * kernel one prefixed `[k]`). Pure.
 */
export function frameOf(line: string): Frame {
  const m = /^\s*[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)$/.exec(line);
  const symbol = m?.[1] ?? line.trim();
  const dso = m?.[2] ?? "";
  const js = /^JS:[*^~+]?(.*?) ?((?:file:\/\/|node:|\/)\S*?):(\d+):\d+$/.exec(symbol);
  if (js) {
    return {
      functionName: js[1] ?? "",
      url: (js[2] ?? "").replace(/^\//, "file:///"),
      lineNumber: Number(js[3]) - 1,
    };
  }
  const kernel = dso.includes("kernel");
  return { functionName: kernel ? `[k] ${symbol}` : symbol, url: "", lineNumber: -1 };
}

interface Sample {
  readonly pid: number;
  readonly tid: number;
  readonly thread: string;
  /** Seconds. */
  readonly time: number;
  /** Leaf first, as perf prints them. */
  readonly frames: string[];
}

/** The samples of a `perf script` text, one per blank-line-separated block. */
export async function* samplesOf(lines: AsyncIterable<string>): AsyncGenerator<Sample> {
  let current: Sample | undefined;
  for await (const line of lines) {
    if (line.trim() === "") {
      if (current) yield current;
      current = undefined;
      continue;
    }
    if (current === undefined) {
      // `<comm> <pid>/<tid> <time>: …` (or `<comm> <tid> <time>: …` without `-F pid`)
      const h = /^(\S.*?)\s+(\d+)(?:\/(\d+))?\s+([\d.]+):/.exec(line);
      const pid = Number(h?.[2] ?? 0);
      current = {
        pid,
        tid: Number(h?.[3] ?? pid),
        thread: h?.[1] ?? "?",
        time: Number(h?.[4] ?? 0),
        frames: [],
      };
      continue;
    }
    current.frames.push(line);
  }
  if (current) yield current;
}

interface Node {
  id: number;
  callFrame: Frame & { scriptId: string; columnNumber: number };
  children: number[];
}

async function main(): Promise<void> {
  const [out, which = "main", fromArg = "0", pidArg] = process.argv.slice(2);
  if (out === undefined)
    throw new Error("usage: perf-to-cpuprofile.ts <out> [main|all] [from] [pid]");
  const from = Number(fromArg);
  const root: Node = {
    id: 1,
    callFrame: { functionName: "(root)", url: "", lineNumber: -1, scriptId: "0", columnNumber: -1 },
    children: [],
  };
  const nodes: Node[] = [root];
  const childIndex = new Map<string, number>();
  const child = (parent: Node, f: Frame): Node => {
    const key = `${parent.id}\u0000${f.functionName}\u0000${f.url}\u0000${f.lineNumber}`;
    const known = childIndex.get(key);
    if (known !== undefined) return nodes[known - 1] as Node;
    const node: Node = {
      id: nodes.length + 1,
      callFrame: { ...f, scriptId: "0", columnNumber: -1 },
      children: [],
    };
    nodes.push(node);
    parent.children.push(node.id);
    childIndex.set(key, node.id);
    return node;
  };
  const samples: number[] = [];
  let pid = pidArg === undefined ? undefined : Number(pidArg);
  let start: number | undefined;
  for await (const s of samplesOf(createInterface({ input: process.stdin }))) {
    pid ??= s.pid;
    start ??= s.time;
    if (s.pid !== pid || s.time < start + from) continue;
    // The main thread's id is the process id.
    if (which === "main" && s.tid !== pid) continue;
    let at =
      which === "all"
        ? child(root, { functionName: `(thread ${s.thread})`, url: "", lineNumber: -1 })
        : root;
    const frames = s.frames.map(frameOf);
    const gc = frames.some((f) => GC.test(f.functionName));
    const path = gc
      ? [{ functionName: "(garbage collector)", url: "", lineNumber: -1 }]
      : frames.reverse();
    for (const f of path) at = child(at, f);
    samples.push(at.id);
  }
  // perf's samples are evenly spaced in CPU time: one unit each (µs at 1 kHz is a guess; the
  // shares are what matter).
  const timeDeltas = samples.map(() => 1000);
  writeFileSync(
    out,
    JSON.stringify({ nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas }),
  );
  process.stderr.write(`${samples.length} samples\n`);
}

if (process.argv[1]?.endsWith("perf-to-cpuprofile.ts")) await main();
