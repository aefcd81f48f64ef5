import { readdir, readFile } from "node:fs/promises";

/**
 * The process table as Linux's /proc shows it: every process (the orphan sweep at startup needs
 * their trees), or one process and its direct children (all the pid file needs).
 */

/** One process, as /proc shows it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Clock ticks since boot when it started: with the pid, names one process for good. */
  readonly startTime: string;
  readonly cmdline: string;
}

/** The process table seam (Linux /proc by default). */
export interface ProcessTable {
  /** Every process, or undefined where there is no /proc. */
  list(): Promise<ProcessInfo[] | undefined>;
  /**
   * The process `pid` and its direct children only, or undefined where that cannot be read
   * alone (then `list` is used): the pid file needs no more, and reading every process of a busy
   * machine is hundreds of files.
   */
  family?(pid: number): Promise<ProcessInfo[] | undefined>;
  kill(pid: number, signal: NodeJS.Signals): void;
}

/** Parses `/proc/<pid>/stat` (the command name may hold spaces and parentheses). */
export function parseStat(pid: number, stat: string, cmdline: string): ProcessInfo | undefined {
  const end = stat.lastIndexOf(")");
  if (end < 0) return undefined;
  const fields = stat.slice(end + 2).split(" ");
  // Field 3 (state) is fields[0]: ppid is field 4, starttime field 22.
  const [state, ppid, startTime] = [fields[0], fields[1], fields[19]];
  if (state === "Z" || ppid === undefined || startTime === undefined) return undefined;
  return { pid, ppid: Number(ppid), startTime, cmdline };
}

/** One process from /proc; undefined if it is gone (or a zombie). */
async function readProcess(pid: number): Promise<ProcessInfo | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "latin1");
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, "latin1"))
      .replace(/\0+$/, "")
      .replace(/\0/g, " ");
    return parseStat(pid, stat, cmdline);
  } catch {
    return undefined;
  }
}

/** The pids of a `/proc/<pid>/task/<tid>/children` file (space-separated). Pure. */
export function parseChildren(text: string): number[] {
  return text
    .split(/\s+/)
    .filter((s) => s !== "")
    .map(Number)
    .filter((n) => Number.isInteger(n));
}

export const linuxProcesses: ProcessTable = {
  async list() {
    let names: string[];
    try {
      names = await readdir("/proc");
    } catch {
      return undefined;
    }
    const out: ProcessInfo[] = [];
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      const info = await readProcess(pid);
      if (info) out.push(info);
    }
    return out;
  },
  async family(pid) {
    // `children` exists where the kernel has CONFIG_PROC_CHILDREN (most do); else `list`.
    const childrenOf = async (tid: string) =>
      parseChildren(await readFile(`/proc/${pid}/task/${tid}/children`, "latin1"));
    let children: number[];
    let threads: string[];
    try {
      children = await childrenOf(String(pid));
      threads = await readdir(`/proc/${pid}/task`);
    } catch {
      return undefined;
    }
    for (const tid of threads) {
      if (tid === String(pid)) continue;
      // A thread that ended meanwhile has no children left to list.
      children.push(...(await childrenOf(tid).catch(() => [])));
    }
    const out: ProcessInfo[] = [];
    for (const p of [pid, ...new Set(children)]) {
      const info = await readProcess(p);
      if (info) out.push(info);
    }
    return out;
  },
  kill(pid, signal) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  },
};
