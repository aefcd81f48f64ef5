import { access, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  OrphanGuard,
  PIDS_FILE,
  isClaudeRuntime,
  isSameProcess,
  parseChildren,
  parseStat,
  pidFileCurrent,
  processTree,
  linuxProcesses,
  type ProcessInfo,
  type ProcessTable,
} from "../../../src/sessions/orphans.js";

const proc = (pid: number, ppid: number, cmdline: string, startTime = `${pid}00`): ProcessInfo => ({
  pid,
  ppid,
  startTime,
  cmdline,
});

/** A process table the test edits; kill removes a process (and records the signal). */
class FakeTable implements ProcessTable {
  killed: [number, NodeJS.Signals][] = [];
  constructor(public all: ProcessInfo[]) {}
  list() {
    return Promise.resolve([...this.all]);
  }
  kill(pid: number, signal: NodeJS.Signals) {
    this.killed.push([pid, signal]);
    this.all = this.all.filter((p) => p.pid !== pid);
  }
}

let cwd = "";
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "a2a-orphans-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});
const logger = pino({ level: "silent" });

describe("orphans: pure parts", () => {
  it("parses /proc/<pid>/stat, even with spaces and parentheses in the name", () => {
    const stat =
      "4242 (claude (x) y) S 17 4242 17 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 7 0 987654 1000 10";
    expect(parseStat(4242, stat, "claude --x")).toEqual({
      pid: 4242,
      ppid: 17,
      startTime: "987654",
      cmdline: "claude --x",
    });
    expect(parseStat(1, "1 (z) Z 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 5 0 0", "")).toBeUndefined();
  });

  it("a recycled pid is never the same process", () => {
    const record = { pid: 7, startTime: "100", cmdline: "claude" };
    expect(isSameProcess(record, proc(7, 1, "claude", "100"))).toBe(true);
    expect(isSameProcess(record, proc(7, 1, "claude", "999"))).toBe(false);
    expect(isSameProcess(record, proc(7, 1, "vim", "100"))).toBe(false);
    expect(isSameProcess(record, undefined)).toBe(false);
  });

  it("reads a /proc children file", () => {
    expect(parseChildren("4242 4250 \n")).toEqual([4242, 4250]);
    expect(parseChildren("")).toEqual([]);
  });

  // What the server wrote (text and file stamp) and the file's stamp now, as it wrote it.
  const WROTE = { text: "a", size: 1, mtimeMs: 5, ino: 9 };
  const AS_WRITTEN = { size: 1, mtimeMs: 5, ino: 9 };
  it.each<
    [
      string,
      Parameters<typeof pidFileCurrent>[0],
      string,
      Parameters<typeof pidFileCurrent>[2],
      boolean,
    ]
  >([
    ["the same text, the file as written", WROTE, "a", AS_WRITTEN, true],
    ["other processes to list", WROTE, "b", AS_WRITTEN, false],
    ["nothing written yet", undefined, "a", AS_WRITTEN, false],
    ["the file is gone", WROTE, "a", undefined, false],
    ["the file was replaced (another server)", WROTE, "a", { ...AS_WRITTEN, ino: 10 }, false],
    ["the file was edited in place", WROTE, "a", { ...AS_WRITTEN, mtimeMs: 6 }, false],
  ])("the pid file is current: %s", (_name, written, text, onDisk, expected) => {
    expect(pidFileCurrent(written, text, onDisk)).toBe(expected);
  });

  it("lists a process tree deepest first", () => {
    const all = [
      proc(10, 1, "claude"),
      proc(11, 10, "bash"),
      proc(12, 11, "sleep"),
      proc(20, 1, "x"),
    ];
    expect(processTree(10, all)).toEqual([12, 11, 10]);
  });
});

describe.skipIf(!existsSync("/proc/self/task"))("linuxProcesses (needs Linux's /proc)", () => {
  it("family: this process and a child it started, and no other process", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const family = await linuxProcesses.family?.(process.pid);
      const pids = family?.map((p) => p.pid) ?? [];
      expect(pids).toContain(process.pid);
      expect(pids).toContain(child.pid);
      // Nothing else: no grandchild, no other process of the machine.
      for (const p of family ?? []) if (p.pid !== process.pid) expect(p.ppid).toBe(process.pid);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("OrphanGuard", () => {
  it("records its Claude Code children, and the next server stops the ones still running with their jobs", async () => {
    const table = new FakeTable([
      proc(100, 1, "node claude-a2a"),
      proc(101, 100, "/x/claude --output-format stream-json"),
      proc(102, 101, "bash -c sleep 300"),
      proc(103, 100, "/x/claude --output-format stream-json"),
      proc(104, 100, "git status"),
    ]);
    await new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 }).record();
    // The server is killed (pid 100 gone); 103 exits and its pid is reused by something else.
    table.all = [
      proc(101, 1, "/x/claude --output-format stream-json"),
      proc(102, 101, "bash -c sleep 300"),
      proc(103, 1, "/x/claude --output-format stream-json", "777"),
      proc(200, 1, "node claude-a2a"),
    ];
    const next = new OrphanGuard({ cwd, logger, processes: table, selfPid: 200, graceMs: 0 });
    expect(await next.stopPredecessor()).toEqual([102, 101]);
    expect(table.killed).toEqual([
      [102, "SIGTERM"],
      [101, "SIGTERM"],
    ]);
    expect(table.all.map((p) => p.pid)).toEqual([103, 200]);
  });

  it("records from the server's own family where the table can say it, without listing every process", async () => {
    const table = new FakeTable([
      proc(100, 1, "node claude-a2a"),
      proc(101, 100, "/x/claude --output-format stream-json"),
    ]);
    let listed = 0;
    const family: ProcessTable = {
      list: () => {
        listed++;
        return table.list();
      },
      family: (pid) => Promise.resolve(table.all.filter((p) => p.pid === pid || p.ppid === pid)),
      kill: () => undefined,
    };
    await new OrphanGuard({ cwd, logger, processes: family, selfPid: 100 }).record();
    expect(listed).toBe(0);
    const file = JSON.parse(await readFile(join(cwd, PIDS_FILE), "utf8")) as {
      children: { pid: number }[];
    };
    expect(file.children.map((c) => c.pid)).toEqual([101]);
  });

  it("writes the pid file again only when what it lists changed, or it is not the one it wrote", async () => {
    const table = new FakeTable([proc(100, 1, "node claude-a2a"), proc(101, 100, "claude")]);
    const guard = new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 });
    const file = join(cwd, PIDS_FILE);
    await guard.record();
    const first = await stat(file);
    // A spare taken, a session id known: the same processes, the same file (no rename).
    await guard.record();
    expect((await stat(file)).ino).toBe(first.ino);
    // A process more: written again.
    table.all.push(proc(102, 100, "claude"));
    await guard.record();
    const second = await stat(file);
    expect(second.ino).not.toBe(first.ino);
    // Someone replaced it: written again, though the processes are the same.
    await rm(file);
    await writeFile(file, "{}");
    await guard.record();
    const third = JSON.parse(await readFile(file, "utf8")) as { children: { pid: number }[] };
    expect(third.children.map((c) => c.pid)).toEqual([101, 102]);
  });

  it("leaves everything alone while the recorded server is still running", async () => {
    const table = new FakeTable([proc(100, 1, "node claude-a2a"), proc(101, 100, "claude")]);
    await new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 }).record();
    table.all.push(proc(200, 1, "node claude-a2a"));
    const next = new OrphanGuard({ cwd, logger, processes: table, selfPid: 200, graceMs: 0 });
    expect(await next.stopPredecessor()).toEqual([]);
    expect(table.killed).toEqual([]);
  });

  it("without a pid file (first start) or without /proc, stops nothing", async () => {
    const none: ProcessTable = { list: () => Promise.resolve(undefined), kill: () => undefined };
    expect(await new OrphanGuard({ cwd, logger, processes: none }).stopPredecessor()).toEqual([]);
    const table = new FakeTable([proc(1, 0, "init")]);
    expect(await new OrphanGuard({ cwd, logger, processes: table }).stopPredecessor()).toEqual([]);
  });
  it("at a graceful stop, removes its pid file once no child of its runs", async () => {
    const table = new FakeTable([proc(100, 1, "node claude-a2a"), proc(101, 100, "claude")]);
    const guard = new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 });
    await guard.record();
    expect(await exists(join(cwd, PIDS_FILE))).toBe(true);
    table.all = [proc(100, 1, "node claude-a2a")];
    await guard.release();
    expect(await exists(join(cwd, PIDS_FILE))).toBe(false);
  });

  it("at a stop with a child still running, keeps it recorded for the next server", async () => {
    const table = new FakeTable([proc(100, 1, "node claude-a2a"), proc(101, 100, "claude")]);
    const guard = new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 });
    await guard.release();
    const file = JSON.parse(await readFile(join(cwd, PIDS_FILE), "utf8")) as {
      children: { pid: number }[];
    };
    expect(file.children.map((c) => c.pid)).toEqual([101]);
  });

  it("at a stop, leaves the pid file of another server that runs on the workspace now", async () => {
    const table = new FakeTable([proc(100, 1, "node claude-a2a"), proc(200, 1, "node claude-a2a")]);
    await new OrphanGuard({ cwd, logger, processes: table, selfPid: 100 }).record();
    await new OrphanGuard({ cwd, logger, processes: table, selfPid: 200 }).release();
    expect(await exists(join(cwd, PIDS_FILE))).toBe(true);
  });
});

describe("orphans: the pid file is writable from a sandboxed command", () => {
  it.each([
    ["/x/claude --output-format stream-json", true],
    [
      "/w/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude --output-format stream-json --verbose --input-format stream-json",
      true,
    ],
    [
      "node /w/node_modules/@anthropic-ai/claude-code/cli.js --output-format stream-json --verbose",
      true,
    ],
    ["claude", false],
    ["/usr/bin/claude --resume abc", false],
    ["vim claude.txt", false],
    ["sleep 300 --output-format stream-json", false],
    ["bash -c claude --output-format stream-json", false],
    ["/x/claude --output-format stream-jsonx", false],
  ])("%s is a Claude Code runtime: %s", (cmdline, expected) => {
    expect(isClaudeRuntime(cmdline)).toBe(expected);
  });

  /** A pid file that lists `children` of a dead server 100, as a command could write it. */
  const forged = (children: ProcessInfo[]) =>
    JSON.stringify({
      version: 1,
      server: { pid: 100, startTime: "10000", cmdline: "node claude-a2a" },
      children: children.map(({ pid, startTime, cmdline }) => ({ pid, startTime, cmdline })),
    });

  it("stops only the listed processes that are Claude Code runtimes", async () => {
    const runtime = proc(101, 1, "/x/claude --output-format stream-json");
    const editor = proc(150, 1, "vim notes.txt");
    const table = new FakeTable([runtime, editor, proc(200, 1, "node claude-a2a")]);
    await mkdir(join(cwd, ".claude"));
    await writeFile(join(cwd, PIDS_FILE), forged([runtime, editor]));
    const next = new OrphanGuard({ cwd, logger, processes: table, selfPid: 200, graceMs: 0 });
    expect(await next.stopPredecessor()).toEqual([101]);
    expect(table.killed).toEqual([[101, "SIGTERM"]]);
  });

  it.each([
    ["a link to a file", "file"],
    ["under a .claude that is a link", "folder"],
  ])("reads no pid file that is %s", async (_what, how) => {
    const runtime = proc(101, 1, "/x/claude --output-format stream-json");
    const table = new FakeTable([runtime, proc(200, 1, "node claude-a2a")]);
    const elsewhere = await mkdtemp(join(tmpdir(), "a2a-orphans-elsewhere-"));
    try {
      await writeFile(join(elsewhere, "claude-a2a.pids.json"), forged([runtime]));
      if (how === "file") {
        await mkdir(join(cwd, ".claude"));
        await symlink(join(elsewhere, "claude-a2a.pids.json"), join(cwd, PIDS_FILE));
      } else {
        await symlink(elsewhere, join(cwd, ".claude"));
      }
      const next = new OrphanGuard({ cwd, logger, processes: table, selfPid: 200, graceMs: 0 });
      expect(await next.stopPredecessor()).toEqual([]);
      expect(table.killed).toEqual([]);
      // Nor is its own written through the link.
      await next.record();
      expect(await readFile(join(elsewhere, "claude-a2a.pids.json"), "utf8")).toBe(
        forged([runtime]),
      );
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
