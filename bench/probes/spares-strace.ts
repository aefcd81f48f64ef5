/**
 * A probe: what a spare's first turn does that a warm turn does not. One server with one spare
 * on the scripted model (in this process); once the spare is idle, `strace` attaches to it, then
 * one-shot turns and warm turns on that process, each marked with its wall-clock times, so the
 * trace can be cut per turn. `npx tsx bench/probes/spares-strace.ts <out-dir> [worktree]`.
 */
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { ClientFactory } from "@a2a-js/sdk/client";
import { FakeModel } from "../../src/demo/fake-model/index.js";
import { freePort } from "../../test/support/a2a/harness.js";
import { createRuntimeSandbox } from "../../test/support/sandbox.js";
import {
  killSandboxProcesses,
  spawnServer,
  writeTestConfig,
} from "../../test/support/server-process.js";
import { streamingTurn } from "../a2a.js";
import rules from "../model-rules.js";
import { TURN_PROMPT } from "../rig.js";
import { generateRepository } from "../scenarios/workspace.js";

const out = process.argv[2] ?? "/tmp";
const worktree = process.argv[3] === "worktree";
const extraEnv = JSON.parse(process.env.PROBE_ENV ?? "{}") as Record<string, string>;
const marks: string[] = [];
const mark = (s: string) => marks.push(`${(Date.now() / 1000).toFixed(6)} ${s}`);
const model = await FakeModel.start({ rules });
(model as unknown as { server: Server }).server.prependListener("request", (req: IncomingMessage) =>
  mark(`model <- ${req.method} ${req.url}`),
);
const sandbox = await createRuntimeSandbox({ modelUrl: model.url, extraEnv });
await writeTestConfig(sandbox.cwd, {
  sessions: { spares: 1, maxLive: 8, minIdleBeforeEvictMs: 0 },
  claude: { isolation: worktree ? "worktree" : "shared" },
});
if (worktree) await generateRepository(sandbox.cwd, 1_000);
const server = await spawnServer({
  built: true,
  cwd: sandbox.cwd,
  port: await freePort(),
  env: { ...sandbox.env, LOG_LEVEL: "debug" },
});
const client = await new ClientFactory().createFromUrl(server.url);
const children = (): number[] =>
  readdirSync(`/proc/${server.pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${server.pid}/task/${t}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
for (let i = 0; i < 3; i++) {
  // Wait for the spare, trace it, take it with a one-shot, then two warm turns on it.
  await delay(6_000);
  const pids = children();
  const spare = Math.max(...pids);
  const trace = spawn(
    "strace",
    [
      "-f",
      "-ttt",
      "-T",
      "-e",
      "trace=execve,openat,stat,statx,readlink,connect,access",
      "-o",
      `${out}/strace-${i}.txt`,
      "-p",
      String(spare),
    ],
    { stdio: "ignore" },
  );
  await delay(1_500);
  mark(`one-shot ${i} sent (pid ${spare})`);
  const one = await streamingTurn(client, TURN_PROMPT);
  mark(`one-shot ${i} final ${Math.round(one.finalMs)} first ${Math.round(one.firstChunkMs)}`);
  for (let w = 0; w < 2; w++) {
    await delay(1_000);
    mark(`warm ${i}.${w} sent`);
    const warm = await streamingTurn(client, TURN_PROMPT, one.contextId);
    mark(`warm ${i}.${w} final ${Math.round(warm.finalMs)}`);
  }
  trace.kill("SIGINT");
}
writeFileSync(`${out}/marks.txt`, marks.join("\n") + "\n");
writeFileSync(`${out}/server.log`, server.stdout());
server.kill("SIGTERM");
await server.exited;
await killSandboxProcesses(sandbox.configDir);
await model.close();
await sandbox.cleanup();
