/**
 * No orphans after `kill -9`: a server killed while a context has a background job leaves its
 * Claude Code child and the job running; the next server on the workspace stops them (by the
 * pid file, checked against start time and command line) before it serves anything.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ClientFactory } from "@a2a-js/sdk/client";
import { startTestBench, type TestBench } from "../support/bench.js";
import { reply, text, toolUse } from "../support/fake-model/index.js";
import { freePort, sendRequest, userMessage } from "../support/a2a/harness.js";
import { watch } from "../support/a2a/watch.js";
import {
  endProcessTest,
  processesWithConfigDir,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../support/server-process.js";
import { readFile } from "node:fs/promises";

let bench: TestBench | undefined;
const servers: ServerProcess[] = [];
afterEach(async () => {
  await endProcessTest(servers.splice(0), bench);
  bench = undefined;
});

const JOB = "sleep 297";
const cmdline = async (pid: number) =>
  (await readFile(`/proc/${pid}/cmdline`, "latin1").catch(() => "")).replace(/\0/g, " ");

describe("durability: no orphans after kill -9", () => {
  it("the restarted server stops the killed server's Claude Code process and its background job", async () => {
    bench = await startTestBench([
      {
        match: { lastUserText: "Start the dev server", toolResult: false },
        reply: reply(
          toolUse("Bash", { command: JOB, description: "Dev server", run_in_background: true }),
        ),
      },
      { match: { toolResult: /running in background/i }, reply: reply(text("Started.")) },
    ]);
    const { cwd, env, configDir } = bench.sandbox;
    await writeTestConfig(cwd);
    const port = await freePort();
    const first = await spawnServer({ cwd, port, env });
    servers.push(first);
    const client = await new ClientFactory().createFromUrl(first.url);
    const stream = watch(
      client.sendMessageStream(sendRequest(userMessage("Start the dev server"))),
    );
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

    const second = await spawnServer({ cwd, port, env });
    servers.push(second);
    const left = (await processesWithConfigDir(configDir)).filter((p) => old.includes(p));
    expect(left).toEqual([]);
    expect(second.output()).toContain("a previous server left running in this workspace");
  }, 180_000);
});
