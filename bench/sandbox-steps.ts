/**
 * The steps of one sandboxed command, replayed one at a time (bench/sandbox-trace.ts calls it
 * while its server still runs, so every path the runtime named still exists): the runtime's own
 * `bwrap` command line as the trace caught it, then the same with parts left out, each run
 * `rounds` times interleaved. The differences of the medians are what each part costs.
 */
import { spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { median, p95 } from "./stats.js";

/** One process of the trace: the program it executed and its argv. */
export interface Exec {
  readonly path: string;
  readonly argv: readonly string[];
}

interface Step {
  readonly name: string;
  readonly file: string;
  readonly argv: readonly string[];
  /** Opened read-only as fd 3 (the runtime hands bwrap its own binary there: apply-seccomp). */
  readonly fd3?: string;
}

const ECHO = "echo bench-bash-out";

/** strace's C escapes (`\n`, `\"`, `\\`, `\ooo`, `\xhh`) undone. */
export function unescapeStrace(s: string): string {
  return s.replace(/\\(x[0-9a-f]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e.startsWith("x")) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", t: "\t", r: "\r", v: "\v", f: "\f" } as Record<string, string>)[e] ?? e;
  });
}

/** The bwrap argv without its report fds (nothing reads them here), the command replaced. */
function bwrapWith(bwrap: Exec, command?: string): string[] {
  const argv = [...bwrap.argv];
  for (const flag of ["--sync-fd", "--info-fd"]) {
    const at = argv.indexOf(flag);
    if (at >= 0) argv.splice(at, 2);
  }
  if (command !== undefined) argv[argv.length - 1] = command;
  return argv;
}

function steps(o: { bwrap: Exec; rg?: Exec; systemRg?: string; self: string }): Step[] {
  const bare = [
    "bwrap",
    "--new-session",
    "--die-with-parent",
    "--unshare-net",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--unshare-pid",
    "--unshare-user",
    "--cap-drop",
    "ALL",
    "--proc",
    "/proc",
    "--",
    "/bin/bash",
    "-c",
    ECHO,
  ];
  const seccomp = `SRT_ALLOW_NESTED_USERNS=0 ARGV0=apply-seccomp /proc/self/fd/3 /bin/bash -c 'exec 3<&- || exit 126; ${ECHO}'`;
  const out: Step[] = [
    {
      name: "bash -c echo (the unsandboxed command)",
      file: "/bin/bash",
      argv: ["bash", "-c", ECHO],
    },
  ];
  if (o.rg !== undefined) {
    out.push({ name: "rg scan, the runtime's bundled rg", file: o.rg.path, argv: o.rg.argv });
    if (o.systemRg !== undefined) {
      out.push({ name: "rg scan, system ripgrep", file: o.systemRg, argv: o.rg.argv });
    }
  }
  out.push(
    { name: "bwrap, namespaces only (no binds)", file: "bwrap", argv: bare },
    { name: "bwrap, the runtime's binds and env", file: "bwrap", argv: bwrapWith(o.bwrap, ECHO) },
    {
      name: "  + apply-seccomp (the runtime's binary)",
      file: "bwrap",
      argv: bwrapWith(o.bwrap, seccomp),
      fd3: o.self,
    },
    {
      name: "  + socat bridges: the whole command",
      file: "bwrap",
      argv: bwrapWith(o.bwrap),
      fd3: o.self,
    },
  );
  return out;
}

function runOnce(step: Step): { ms: number; ok: boolean; err: string } {
  const fd = step.fd3 === undefined ? undefined : openSync(step.fd3, "r");
  try {
    const start = performance.now();
    const r = spawnSync(step.file, step.argv.slice(1), {
      argv0: step.argv[0],
      stdio: fd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", "pipe", "pipe", fd],
      timeout: 10_000,
    });
    const ms = performance.now() - start;
    const out = r.stdout?.toString() ?? "";
    // rg finds nothing in a fresh workspace (status 1); every other step echoes.
    const ok = step.name.startsWith("rg") ? r.status !== null : out.includes("bench-bash-out");
    return { ms, ok, err: r.stderr?.toString().slice(0, 300) ?? String(r.error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Each step `rounds` times, interleaved; its median and p95 (ms), or why it failed. */
export function replaySteps(
  o: { bwrap: Exec; rg?: Exec; systemRg?: string; self: string },
  rounds: number,
): string[] {
  const all = steps(o);
  const samples = all.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    all.forEach((step, i) => {
      const r = runOnce(step);
      if (!r.ok) throw new Error(`step "${step.name}" failed: ${r.err}`);
      samples[i]?.push(r.ms);
    });
  }
  return all.map((step, i) => {
    const xs = samples[i] ?? [];
    const at = (ms: number) => ms.toFixed(1).padStart(7);
    return `${step.name.padEnd(44)} ${at(median(xs))} ms  p95 ${at(p95(xs))}  min ${at(Math.min(...xs))}`;
  });
}
