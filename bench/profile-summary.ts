/**
 * Reads a V8 CPU profile (`BENCH_PROFILE`'s `*.cpuprofile`) and prints where the time went: self
 * time per module (our folders under `dist/`, a package under `node_modules`, node's internals,
 * GC, idle) and the heaviest functions, each with its share of the busy (non-idle) time.
 *
 *   npx tsx bench/profile-summary.ts /tmp/prof/CPU.….cpuprofile [top=25] [from=0 s]
 */
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** The module a script URL belongs to, coarsely: what the breakdown in BENCHMARKS.md names. Pure. */
export function moduleOf(url: string, fn: string): string {
  if (fn === "(idle)" || fn === "(program)" || fn === "(garbage collector)") return fn;
  if (url === "") return "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pkg) {
    const [, name, rest] = pkg;
    // The A2A SDK's server is one bundle: its file is the module.
    return name === "@a2a-js/sdk" ? `${name}/${rest}` : (name as string);
  }
  const ours = /\/(?:dist|src)\/(.*?)([^/]+)\.[jt]s$/.exec(url);
  if (ours) return `ours: ${ours[1] === "" ? ours[2] : (ours[1] as string).replace(/\/$/, "")}`;
  if (url.startsWith("node:")) return `node: ${url.slice(5).split("/")[0]}`;
  return url;
}

/**
 * The part of the server a frame belongs to, for the breakdown the issue asks for, or undefined
 * for a frame that says nothing by itself (node's internals, an anonymous native). Pure.
 */
export function categoryOf(module: string, fn: string): string | undefined {
  if (module === "(native)") {
    if (/^(stringify|parse|structuredClone|serialize|deserialize)$/.test(fn))
      return "serialization";
    return undefined;
  }
  if (/^(kysely|better-sqlite3|pg|pg-.*)$/.test(module)) return "store";
  if (module.startsWith("@a2a-js/sdk/dist/server/database")) return "store";
  if (module === "ours: store") return "store";
  if (/^(pino|pino-pretty|sonic-boom|@pinojs\/redact|fast-redact)$/.test(module)) return "logging";
  if (module === "ours: logging") return "logging";
  if (module.startsWith("@a2a-js/sdk/dist/server/express")) return "SDK HTTP transports";
  if (module.startsWith("@a2a-js/sdk")) return "SDK request handler, result manager, event bus";
  if (module === "@anthropic-ai/claude-agent-sdk" || module === "zod") return "Claude Agent SDK";
  if (/^ours: (claude|a2a|sessions)/.test(module)) return "our event mapping and task logic";
  if (module.startsWith("ours: http") || module.startsWith("ours: auth"))
    return "our HTTP middleware";
  if (module.startsWith("ours: ")) return "ours, other";
  if (/^node: (_http_|net|stream)/.test(module)) return "HTTP (node, express)";
  if (
    /^(express|router|body-parser|raw-body|etag|iconv-lite|on-finished|parseurl|type-is|send|qs|finalhandler|proxy-addr|ipaddr.js|content-type|media-typer|mime-.*|fresh|statuses|depd|cookie|path-to-regexp)$/.test(
      module,
    )
  ) {
    return "HTTP (node, express)";
  }
  if (module === "(garbage collector)") return "GC";
  if (module === "(program)") return "(program)";
  return undefined;
}

function summarize(profile: Profile, top: number, from: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stack = (id: number): Node[] => {
    const out: Node[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (n) out.push(n);
    }
    return out;
  };
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    // `from`: skip the first seconds (the server's startup, module loading).
    if (at < from * 1e6) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  /** Native and node-internal time charged to the nearest package or file of ours above it. */
  const charged = new Map<string, number>();
  /** Inclusive time: each function once per sample it is on the stack of. */
  const inclusive = new Map<string, number>();
  const categories = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const module = moduleOf(url, functionName);
    total += us;
    if (module === "(idle)") {
      idle += us;
      continue;
    }
    modules.set(module, (modules.get(module) ?? 0) + us);
    const key = `${functionName || "(anonymous)"} ${module}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    const frames = stack(id);
    const owner = frames
      .map((f) => moduleOf(f.callFrame.url, f.callFrame.functionName))
      .find((m) => m.startsWith("ours: ") || !/^(\(|node: )/.test(m));
    const to = owner ?? module;
    charged.set(to, (charged.get(to) ?? 0) + us);
    const loading = frames.some((f) =>
      /^(Module\._load|loadAndTranslate|compileSourceTextModule)$/.test(f.callFrame.functionName),
    );
    const category = loading
      ? "module loading"
      : (frames
          .map((f) =>
            categoryOf(
              moduleOf(f.callFrame.url, f.callFrame.functionName),
              f.callFrame.functionName,
            ),
          )
          .find((c) => c !== undefined) ?? "node internals, other");
    categories.set(category, (categories.get(category) ?? 0) + us);
    const seen = new Set<string>();
    for (const f of frames) {
      const m = moduleOf(f.callFrame.url, f.callFrame.functionName);
      const k = `${f.callFrame.functionName || "(anonymous)"} ${m}:${f.callFrame.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${ms(us)} ${pct(us)}  ${k}`);
  return [
    `profile: ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(2)} s (idle ${(idle / 1e6).toFixed(1)} s)`,
    "",
    "self time by part (the nearest frame that says which):",
    ...list(categories),
    "",
    "self time by module:",
    ...list(modules),
    "",
    "self time by module, native and node-internal time charged to the caller's module:",
    ...list(charged),
    "",
    "self time by function:",
    ...list(functions),
    "",
    "inclusive time by function:",
    ...list(inclusive),
  ].join("\n");
}

const [file, topArg, fromArg] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]\n");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
process.stdout.write(`${summarize(profile, Number(topArg ?? 25), Number(fromArg ?? 0))}\n`);
