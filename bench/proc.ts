/** What `/proc` says about processes: CPU time and resident memory. Linux only. */
import { readdir, readFile } from "node:fs/promises";

// USER_HZ: the unit of /proc/<pid>/stat times; 100 on every Linux build that matters here.
const TICKS_PER_SECOND = 100;

/** User + system CPU time a process has used so far, in ms (10 ms resolution). */
export async function cpuTimeMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1");
  // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time, in ms (10 ms resolution), of the process's children that have exited and been
 * waited for (with theirs): what its short-lived commands cost, which `/proc` no longer lists.
 */
export async function childrenCpuTimeMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/**
 * The same, to the nanosecond: the time on a CPU of every thread of the process
 * (`/proc/<pid>/task/<tid>/schedstat`), so a single warm turn's few milliseconds can be read
 * without `stat`'s 10 ms ticks. A thread that has exited is no longer counted: node's threads
 * (V8's helpers, libuv's pool) live as long as the process.
 */
export async function cpuTimePreciseMs(pid: number): Promise<number> {
  const tids = await readdir(`/proc/${pid}/task`);
  const each = await Promise.all(
    tids.map(async (tid) => {
      try {
        const stat = await readFile(`/proc/${pid}/task/${tid}/schedstat`, "latin1");
        return Number(stat.split(" ")[0]) / 1e6;
      } catch {
        return 0; // exited between the listing and the read
      }
    }),
  );
  return each.reduce((a, b) => a + b, 0);
}

/** Resident memory of a process in MB; 0 when it is gone. */
export async function rssMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "latin1");
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

export async function summedRssMb(pids: readonly number[]): Promise<number> {
  const each = await Promise.all(pids.map(rssMb));
  return each.reduce((a, b) => a + b, 0);
}

/**
 * Time the process's main thread has spent runnable but waiting for a CPU, in ms
 * (`/proc/<pid>/schedstat`): how much of a slow figure is the machine's load, not the code.
 */
export async function runQueueWaitMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/schedstat`, "latin1");
  return Number(stat.split(" ")[1]) / 1e6;
}
