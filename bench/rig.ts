/**
 * What every scenario runs against: the scripted model and our server, each its own process (so
 * `/proc` shows the server's CPU and memory alone, and neither side pays for producing the model's
 * deltas), and a second runtime sandbox for the direct SDK sessions, so each side's Claude Code processes can be told apart by their config dir.
 * Everything listens on 127.0.0.1; the runtimes' config and tmp dirs are in temp dirs.
 */
import { spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { ConfigInput } from "../src/config/schema.js";
import { TEST_MODEL } from "../test/support/bench.js";
import { freePort } from "../test/support/a2a/harness.js";
export { longPrompt, longText, TURN_PROMPT } from "./model-rules.js";
import { startModelProcess, type ModelProcess } from "./model-process.js";
import { createRuntimeSandbox, type RuntimeSandbox } from "../test/support/sandbox.js";
import { testConfig } from "../test/support/harness/test-config.js";
import { knownKeysOnly } from "./config-keys.js";
import {
  killSandboxProcesses,
  processesWithConfigDir,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../test/support/server-process.js";

/** Another server of our own on the scripted model, with its own workspace and config. */
export interface ExtraServer {
  readonly server: ServerProcess;
  readonly client: Client;
  /** Its workspace. */
  readonly cwd: string;
  /** Its runtime's CLAUDE_CONFIG_DIR (transcripts under `projects/`). */
  readonly configDir: string;
  /** Spawn to its first healthy `/healthz` (startup: migrations, recovery, pruning). */
  readonly startMs: number;
  /** Pids of its Claude Code processes (and their children). */
  claudePids: () => Promise<number[]>;
  /**
   * Stops it and starts the same build on the same workspace and config dir (a second start:
   * whatever the first imported is in its store now); `server`, `client` and `startMs` then
   * name the new process.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface Rig {
  readonly model: ModelProcess;
  readonly server: ServerProcess;
  /** Whether the server runs compiled (`dist/`) rather than from `src/` through tsx. */
  readonly built: boolean;
  readonly client: Client;
  /** The server's runtime sandbox (its Claude Code children carry its config dir). */
  readonly serverSandbox: RuntimeSandbox;
  /** The sandbox of the direct SDK sessions. */
  readonly directSandbox: RuntimeSandbox;
  /** `query()` options of a direct session: the same runtime switches the server uses. */
  directOptions(extra?: Partial<Options>): Options;
  /** Pids of the server's Claude Code processes. */
  serverClaudePids: () => Promise<number[]>;
  directClaudePids: () => Promise<number[]>;
  /**
   * Starts another server with `config` (e.g. a small `sessions.maxLive`), after `prepare` has
   * filled its workspace (e.g. its database); the caller closes it.
   */
  extraServer(
    config: ConfigInput,
    prepare?: (cwd: string, configDir: string) => Promise<void>,
    /** Another build's compiled CLI (`BENCH_BEFORE`); default: this checkout's. */
    cli?: string,
    /** More node flags and environment for it (e.g. `bench/memory-probe.js` preloaded). */
    extra?: ServerExtras,
  ): Promise<ExtraServer>;
  close(): Promise<void>;
}

export interface ServerExtras {
  readonly nodeArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** A graceful stop (a CPU profile is written then), bounded; then SIGKILL. */
export async function stopServer(server: ServerProcess): Promise<void> {
  server.kill("SIGTERM");
  const stopped = await Promise.race([
    server.exited.then(() => true),
    // Unref'd: a timer left pending kept the bench alive 15 s after its table.
    delay(15_000, false, { ref: false }),
  ]);
  if (!stopped) {
    server.kill("SIGKILL");
    await server.exited;
  }
}

async function startExtraServer(
  modelUrl: string,
  built: boolean,
  config: ConfigInput,
  prepare?: (cwd: string, configDir: string) => Promise<void>,
  cli?: string,
  extra: ServerExtras = {},
): Promise<ExtraServer> {
  const sandbox = await createRuntimeSandbox({ modelUrl });
  try {
    if (cli === undefined) await writeTestConfig(sandbox.cwd, config);
    else await writeConfigFor(cli, sandbox.cwd, config);
    await prepare?.(sandbox.cwd, sandbox.configDir);
    const launch = async () => {
      const spawned = performance.now();
      const server = await spawnServer({
        built,
        cwd: sandbox.cwd,
        port: await freePort(),
        env: { ...sandbox.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info", ...extra.env },
        ...(cli !== undefined && { cli }),
        nodeArgs: [...profileArgs(), ...(extra.nodeArgs ?? [])],
        // Startup ends when the server serves: a slower poll would count its first moments of
        // work after that (the sweep of a big map) as startup.
        pollMs: 5,
      });
      const startMs = performance.now() - spawned;
      const client = await new ClientFactory().createFromUrl(server.url);
      return { server, client, startMs };
    };
    let now = await launch();
    return {
      get server() {
        return now.server;
      },
      get client() {
        return now.client;
      },
      get startMs() {
        return now.startMs;
      },
      cwd: sandbox.cwd,
      configDir: sandbox.configDir,
      // The server itself carries the sandbox's environment too.
      claudePids: async () =>
        (await processesWithConfigDir(sandbox.configDir)).filter((pid) => pid !== now.server.pid),
      async restart() {
        await stopServer(now.server);
        await killSandboxProcesses(sandbox.configDir);
        now = await launch();
      },
      async close() {
        await stopServer(now.server);
        await killSandboxProcesses(sandbox.configDir);
        await sandbox.cleanup();
      },
    };
  } catch (err) {
    await killSandboxProcesses(sandbox.configDir);
    await sandbox.cleanup();
    throw err;
  }
}

/**
 * The test config as another build takes it: only the keys its `config.schema.json` (beside its
 * `dist/`) names, so an earlier build, which refuses a key it does not know, starts.
 */
async function writeConfigFor(cli: string, cwd: string, config: ConfigInput): Promise<void> {
  const full = testConfig(config) as Record<string, unknown>;
  let schema: unknown;
  try {
    schema = JSON.parse(await readFile(join(dirname(cli), "..", "config.schema.json"), "utf8"));
  } catch {
    schema = undefined; // no schema beside it: hand it everything, as before
  }
  const { config: kept, dropped } = knownKeysOnly(full, schema);
  if (dropped.length > 0) {
    process.stderr.write(
      `bench: the build of ${cli} does not know ${dropped.join(", ")}: left out\n`,
    );
  }
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(join(cwd, ".claude", "claude-a2a.config.json"), JSON.stringify(kept));
}

/**
 * Brings `dist/` up to date (as `npm start` does) so the server runs as users run it, compiled;
 * when the build fails (e.g. a half-edited tree), falls back to the sources through tsx.
 */
function buildServer(): boolean {
  const script = fileURLToPath(new URL("../scripts/build-if-stale.js", import.meta.url));
  const r = spawnSync(process.execPath, [script], { stdio: "inherit" });
  if (r.status === 0) return true;
  process.stderr.write("bench: dist/ does not build: running the server from src/ through tsx\n");
  return false;
}

/**
 * The node flags of every server the bench starts. BENCH_PROFILE=<dir>: it writes a V8 CPU
 * profile there when it stops (an extra server too: `CPU.<date>.<pid>.…`, its pid in the name).
 * BENCH_SERVER_NODE_ARGS: more (e.g. `--perf-basic-prof`, for `perf record -p <pid>`, which
 * samples CPU time where V8's profiler samples the wall clock; bench/perf-to-cpuprofile.ts).
 */
function profileArgs(): string[] {
  const profileDir = process.env.BENCH_PROFILE;
  return [
    ...(profileDir === undefined
      ? []
      : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=200"]),
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter((a) => a !== ""),
  ];
}

export async function startRig(): Promise<Rig> {
  const model = await startModelProcess();
  const serverSandbox = await createRuntimeSandbox({ modelUrl: model.url });
  const directSandbox = await createRuntimeSandbox({ modelUrl: model.url });
  await writeTestConfig(serverSandbox.cwd, {
    // Room for every context the scenarios open (none waits for another's process), and idle
    // processes go away between scenarios instead of adding to the machine's load.
    sessions: { maxLive: 64, idleTimeoutMs: 20_000, minIdleBeforeEvictMs: 0 },
  });
  const built = buildServer();
  const server = await spawnServer({
    built,
    cwd: serverSandbox.cwd,
    port: await freePort(),
    env: {
      ...serverSandbox.env,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    },
    nodeArgs: profileArgs(),
  });
  const client = await new ClientFactory().createFromUrl(server.url);
  return {
    model,
    server,
    built,
    client,
    serverSandbox,
    directSandbox,
    directOptions: (extra = {}) => ({
      cwd: directSandbox.cwd,
      env: directSandbox.env,
      model: TEST_MODEL,
      permissionMode: "acceptEdits",
      settingSources: [],
      includePartialMessages: true,
      ...extra,
    }),
    serverClaudePids: () => processesWithConfigDir(serverSandbox.configDir),
    directClaudePids: () => processesWithConfigDir(directSandbox.configDir),
    extraServer: (config, prepare, cli, extra) =>
      startExtraServer(model.url, built, config, prepare, cli, extra),
    async close() {
      await stopServer(server);
      await killSandboxProcesses(serverSandbox.configDir);
      await killSandboxProcesses(directSandbox.configDir);
      await model.close();
      await serverSandbox.cleanup();
      await directSandbox.cleanup();
    },
  };
}
