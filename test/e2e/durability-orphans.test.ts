/**
 * No orphans after `kill -9`: a server killed while a context has a background job leaves its
 * Claude Code child and the job running; the next server on the workspace stops them (by the
 * pid file, checked against start time and command line) before it serves anything.
 */
import { describe, expect, it } from "vitest";
import {
  headTask,
  processesWithConfigDir,
  resultOf,
  says,
  sendForTask,
  serverProcess,
  userMessage,
  watchMessage,
} from "../support/harness/index.js";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { startJobRules } from "../support/a2a/background.js";

const JOB = "sleep 297";
const cmdline = async (pid: number) =>
  (await readFile(`/proc/${pid}/cmdline`, "latin1").catch(() => "")).replace(/\0/g, " ");

describe("durability: no orphans after kill -9", () => {
  it("the restarted server stops the killed server's Claude Code process and its background job", async () => {
    const p = await serverProcess({
      rules: [...startJobRules(JOB), says("What did you start?", "A dev server.")],
    });
    const { bench, server: first } = p;
    const { configDir } = bench.sandbox;
    const client = await p.connect();
    const stream = watchMessage(client, "Start the job");
    await stream.first((e) => e.payload?.$case === "artifactUpdate");

    // Wait (by polling the process table, not the clock) until the job runs.
    let old: number[] = [];
    for (let i = 0; i < 300; i++) {
      old = (await processesWithConfigDir(configDir)).filter((p) => p !== first.pid);
      const commands = await Promise.all(old.map(cmdline));
      if (commands.some((c) => c.includes(JOB))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const oldCommands = await Promise.all(old.map(cmdline));
    expect(oldCommands.some((c) => c.includes(JOB))).toBe(true);
    expect(oldCommands.some((c) => /claude/i.test(c))).toBe(true);

    first.kill("SIGKILL");
    await first.exited;
    await stream.done.catch(() => undefined);
    // Orphaned, still running.
    const orphans = (await processesWithConfigDir(configDir)).filter((p) => old.includes(p));
    expect(orphans.length).toBeGreaterThan(0);

    const second = await p.spawn();
    const left = (await processesWithConfigDir(configDir)).filter((p) => old.includes(p));
    expect(left).toEqual([]);
    expect(second.output()).toContain("a previous server left running in this workspace");

    // The restarted server resumes the conversation, as the transcript's only writer: the
    // scripted model sees the earlier exchange, and the transcript's entries form one chain (no
    // two entries answer the same parent, as they would if a surviving process appended a turn
    // beside the restarted server's).
    const { contextId } = headTask(stream.items);
    const again = await p.connect();
    const next = await sendForTask(again, userMessage("What did you start?", { contextId }));
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultOf(next)).toBe("A dev server.");
    const asked = bench.model.messageRequests.find((r) => r.lastUserText.includes("What did"));
    expect(JSON.stringify(asked?.body.messages)).toContain("Start the job");
    const chain = await transcriptEntries(configDir);
    expect(chain.some((e) => e.type === "assistant")).toBe(true);
    const parents = chain.flatMap((e) => (e.parentUuid ? [e.parentUuid] : []));
    expect(new Set(parents).size).toBe(parents.length);
  }, 180_000);
});

interface TranscriptEntry {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
}

/** Every entry of the one conversation transcript under the sandbox's CLAUDE_CONFIG_DIR. */
async function transcriptEntries(configDir: string): Promise<TranscriptEntry[]> {
  const projects = join(configDir, "projects");
  const files: string[] = [];
  for (const project of await readdir(projects)) {
    for (const name of await readdir(join(projects, project))) {
      if (name.endsWith(".jsonl")) files.push(join(projects, project, name));
    }
  }
  expect(files).toHaveLength(1);
  const text = await readFile(files[0] ?? "", "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as TranscriptEntry);
}
