import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The Claude Code processes of one runtime sandbox as the runtime itself lists them: each live
 * process writes `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` with its session id and folder, from
 * its start on, before any prompt. That is how a test tells a spare (started ahead) from the
 * process a conversation runs in, and whether one is the other.
 */
export interface RuntimeProcess {
  readonly pid: number;
  readonly sessionId: string;
  readonly cwd: string;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The sandbox's live Claude Code processes, by pid. */
export async function runtimeProcesses(configDir: string): Promise<RuntimeProcess[]> {
  const dir = join(configDir, "sessions");
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: RuntimeProcess[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      const entry = JSON.parse(await readFile(join(dir, name), "utf8")) as Partial<RuntimeProcess>;
      if (typeof entry.pid !== "number" || typeof entry.sessionId !== "string") continue;
      if (!alive(entry.pid)) continue;
      out.push({ pid: entry.pid, sessionId: entry.sessionId, cwd: entry.cwd ?? "" });
    } catch {
      // Being written, or gone meanwhile.
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/**
 * Polls (bounded: about 60 s) until `test` holds of the sandbox's live processes; returns them.
 * Throws with what it saw last.
 */
export async function untilProcesses(
  configDir: string,
  test: (all: RuntimeProcess[]) => boolean,
  what: string,
): Promise<RuntimeProcess[]> {
  let last: RuntimeProcess[] = [];
  for (let i = 0; i < 600; i++) {
    last = await runtimeProcesses(configDir);
    if (test(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: never seen; last ${JSON.stringify(last)}`);
}

/** Polls (bounded: about 60 s) until the pid file `file` lists `pid` among its children. */
export async function untilPidFileLists(file: string, pid: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const content = await readFile(file, "utf8").catch(() => "");
    const children =
      content === "" ? [] : (JSON.parse(content) as { children: { pid: number }[] }).children;
    if (children.some((c) => c.pid === pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the pid file never listed ${pid}`);
}

/** Polls (bounded) until the process `pid` has exited. */
export async function untilGone(pid: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (!alive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`process ${pid} is still running`);
}
