import { lstat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { isRefused, readFileInside, removeInside, writeFileInside } from "../common/safe-files.js";
import { linuxProcesses, type ProcessInfo, type ProcessTable } from "./process-table.js";

export {
  linuxProcesses,
  parseChildren,
  parseStat,
  type ProcessInfo,
  type ProcessTable,
} from "./process-table.js";

import { PIDS_FILE } from "../common/workspace-files.js";

export { PIDS_FILE };

/** A process recorded in the pid file. */
export interface ProcessRecord {
  readonly pid: number;
  readonly startTime: string;
  readonly cmdline: string;
}

/** The same process: same pid, start time and command line (a recycled pid never matches). */
export function isSameProcess(record: ProcessRecord, info: ProcessInfo | undefined): boolean {
  return (
    info !== undefined &&
    info.pid === record.pid &&
    info.startTime === record.startTime &&
    info.cmdline === record.cmdline
  );
}

/**
 * A Claude Code runtime as the Agent SDK starts it: its program (or the script its interpreter
 * runs) is a `claude` (the native binary, `@anthropic-ai/claude-code`'s cli.js), and it speaks
 * stream-json. The pid file is writable from a sandboxed command: whatever it lists, only such a
 * process is ever stopped (never the user's editor, shell, or interactive `claude`). Pure.
 */
export function isClaudeRuntime(cmdline: string): boolean {
  const words = cmdline.split(" ");
  const program = words
    .slice(0, 2)
    .some((w) => /claude/i.test(basename(w)) || /[/\\]claude-(code|agent-sdk)[^/\\]*[/\\]/.test(w));
  return program && /(^| )--output-format stream-json( |$)/.test(cmdline);
}

/** A process and all its descendants, deepest first (children stop before their parent). */
export function processTree(root: number, all: readonly ProcessInfo[]): number[] {
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const visit = (pid: number, seen: Set<number>) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    for (const child of children.get(pid) ?? []) visit(child, seen);
    out.push(pid);
  };
  visit(root, new Set());
  return out;
}

/** Claude Code processes among a server's direct children. */
export function claudeChildren(serverPid: number, all: readonly ProcessInfo[]): ProcessInfo[] {
  return all.filter((p) => p.ppid === serverPid && /claude/i.test(p.cmdline));
}

const fileSchema = z.object({
  version: z.literal(1),
  server: z.object({ pid: z.number(), startTime: z.string(), cmdline: z.string() }),
  children: z.array(z.object({ pid: z.number(), startTime: z.string(), cmdline: z.string() })),
});
type PidsFile = z.infer<typeof fileSchema>;

/** A file as `stat` names one version of it. */
export interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/**
 * Whether the pid file already says `text`: this guard wrote exactly that, and the file is the
 * one it wrote (no other server, no hand, replaced or removed it since). Pure.
 */
export function pidFileCurrent(
  written: (FileIdentity & { readonly text: string }) | undefined,
  text: string,
  onDisk: FileIdentity | undefined,
): boolean {
  return (
    written !== undefined &&
    onDisk !== undefined &&
    written.text === text &&
    written.size === onDisk.size &&
    written.mtimeMs === onDisk.mtimeMs &&
    written.ino === onDisk.ino
  );
}

export interface OrphanGuardOptions {
  /** The workspace: the pid file is `<cwd>/.claude/claude-a2a.pids.json`. */
  readonly cwd: string;
  readonly logger: Logger;
  readonly processes?: ProcessTable;
  readonly selfPid?: number;
  /** How long stopped processes get between SIGTERM and SIGKILL. */
  readonly graceMs?: number;
}

/**
 * Keeps the pid file of the Claude Code processes this server started, and at startup stops the
 * ones a killed predecessor left running (with their background jobs), so that no orphan wakes
 * later, spends tokens with nobody attached, or writes to a transcript the new server resumes.
 */
export class OrphanGuard {
  private readonly file: string;
  private readonly processes: ProcessTable;
  private readonly selfPid: number;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  /** What this guard last wrote, and the file as it was then. */
  private written: (FileIdentity & { readonly text: string }) | undefined;

  constructor(private readonly o: OrphanGuardOptions) {
    this.file = join(o.cwd, PIDS_FILE);
    this.processes = o.processes ?? linuxProcesses;
    this.selfPid = o.selfPid ?? process.pid;
  }

  /** Stops what the predecessor recorded and is still running; returns the pids stopped. */
  async stopPredecessor(): Promise<number[]> {
    const previous = await this.read();
    const all = previous ? await this.processes.list() : undefined;
    if (!previous || !all) return [];
    const byPid = new Map(all.map((p) => [p.pid, p]));
    if (
      previous.server.pid !== this.selfPid &&
      isSameProcess(previous.server, byPid.get(previous.server.pid))
    ) {
      this.o.logger.warn(
        { pid: previous.server.pid },
        "another claude-a2a server is running on this workspace; its processes are left alone",
      );
      return [];
    }
    const stopped: number[] = [];
    for (const child of previous.children) {
      if (!isSameProcess(child, byPid.get(child.pid))) continue;
      if (!isClaudeRuntime(child.cmdline)) {
        this.o.logger.warn(
          { pid: child.pid },
          "the pid file lists a process that is not a Claude Code runtime; it is left alone",
        );
        continue;
      }
      stopped.push(...processTree(child.pid, all));
    }
    if (stopped.length === 0) return [];
    for (const pid of stopped) this.processes.kill(pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, this.o.graceMs ?? 1_000));
    const left = new Set((await this.processes.list())?.map((p) => p.pid) ?? []);
    for (const pid of stopped) if (left.has(pid)) this.processes.kill(pid, "SIGKILL");
    this.o.logger.warn(
      { pids: stopped, commands: previous.children.map((c) => c.cmdline.slice(0, 200)) },
      `stopped ${stopped.length} process(es) a previous server left running in this workspace`,
    );
    return stopped;
  }

  /** Records this server's live Claude Code children (call when one starts or ends). */
  record(): Promise<void> {
    if (this.dirty) return this.writing;
    this.dirty = true;
    this.writing = this.writing.then(async () => {
      this.dirty = false;
      try {
        await this.write();
      } catch (err) {
        this.o.logger.warn({ err, file: this.file }, "could not write the pid file");
      }
    });
    return this.writing;
  }

  /**
   * At a graceful stop, once its sessions are closed: the pid file goes, unless a child of this
   * server still runs (then it is recorded, for the next server to stop) or the file is another
   * live server's.
   */
  async release(): Promise<void> {
    await this.writing;
    // Every process: the pid file may be another server's, which is among them, not ours.
    const all = await this.processes.list();
    if (all !== undefined && claudeChildren(this.selfPid, all).length > 0) {
      await this.record();
      return;
    }
    // Another server that runs on this workspace now keeps its file; a dead one's goes too.
    const recorded = await this.read();
    const other = recorded?.server;
    if (
      other !== undefined &&
      other.pid !== this.selfPid &&
      isSameProcess(
        other,
        all?.find((p) => p.pid === other.pid),
      )
    ) {
      return;
    }
    await removeInside(this.o.cwd, PIDS_FILE).catch((err: unknown) => {
      this.o.logger.warn({ err, file: this.file }, "could not remove the pid file");
    });
  }

  /** This server and its children: all a record needs (`list` where /proc cannot say alone). */
  private async family(): Promise<ProcessInfo[] | undefined> {
    return (await this.processes.family?.(this.selfPid)) ?? (await this.processes.list());
  }

  private async onDisk(): Promise<FileIdentity | undefined> {
    try {
      // The name itself: a link put there is another file.
      const { size, mtimeMs, ino } = await lstat(this.file);
      return { size, mtimeMs, ino };
    } catch {
      return undefined;
    }
  }

  private async write(): Promise<void> {
    const all = await this.family();
    if (!all) return;
    const self = all.find((p) => p.pid === this.selfPid);
    if (!self) return;
    const content: PidsFile = {
      version: 1,
      server: { pid: self.pid, startTime: self.startTime, cmdline: self.cmdline },
      children: claudeChildren(this.selfPid, all).map(({ pid, startTime, cmdline }) => ({
        pid,
        startTime,
        cmdline,
      })),
    };
    const text = `${JSON.stringify(content, null, 2)}\n`;
    // A spare taken, a session's id known: the same processes, nothing to write.
    if (this.written?.text === text && pidFileCurrent(this.written, text, await this.onDisk())) {
      return;
    }
    // A temp file renamed over it, never through a link at `.claude` (safe-files.ts).
    await writeFileInside(this.o.cwd, PIDS_FILE, text);
    const written = await this.onDisk();
    this.written = written && { ...written, text };
  }

  /** The pid file, read without following a link, and only if it is a regular file. */
  private async read(): Promise<PidsFile | undefined> {
    try {
      const text = (await readFileInside(this.o.cwd, PIDS_FILE)).toString("utf8");
      const parsed = fileSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch (err) {
      if (isRefused(err)) {
        this.o.logger.warn({ kind: err.kind, path: err.path }, "the pid file was refused; ignored");
      }
      return undefined;
    }
  }
}
