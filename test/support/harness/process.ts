/**
 * `claude-a2a` as real processes on one scripted model and sandbox: what restart, shutdown and
 * fleet tests need (a pid to signal, an exit to wait for, a second server on the same files).
 */
import type { Client } from "@a2a-js/sdk/client";
import type { ConfigInput } from "../../../src/config/schema.js";
import { startTestBench, type TestBench } from "../bench.js";
import {
  endProcessTest,
  spawnServer,
  writeTestConfig,
  type ServerProcess,
} from "../server-process.js";
import { a2aClient, type ClientOptions } from "./clients.js";
import type { Rule } from "./model.js";
import { freePort } from "./ports.js";

export interface SpawnOptions {
  /** The whole environment (default: the sandbox's). */
  readonly env?: Record<string, string>;
  /** More command-line arguments (e.g. `--workspace api=…`). */
  readonly args?: readonly string[];
  /** Run the compiled `dist/cli.js` instead of the sources through tsx. */
  readonly built?: boolean;
  /** Another port than the harness's own (a second server beside the first). */
  readonly port?: number;
  /** Another working directory than the sandbox's (its config written there first). */
  readonly cwd?: string;
  /** The config written into `cwd` first (default: the harness's). */
  readonly config?: ConfigInput;
}

export interface ProcessHarness {
  readonly bench: TestBench;
  /** The port every server of this harness listens on unless told otherwise. */
  readonly port: number;
  /** The server processes started so far, oldest first; `close()` kills every one. */
  readonly servers: readonly ServerProcess[];
  /** The latest server started. */
  readonly server: ServerProcess;
  /** Starts a server process (again) on the sandbox's workspace and port; waits for /healthz. */
  spawn(options?: SpawnOptions): Promise<ServerProcess>;
  /** An official client of `server` (default: the latest). */
  connect(options?: ClientOptions, server?: ServerProcess): Promise<Client>;
  /** SIGKILLs every server (waited for), then the sandbox's leftovers, the sandbox and the model. */
  close(): Promise<void>;
}

export interface ProcessHarnessOptions extends SpawnOptions {
  readonly rules?: readonly Rule[];
  /** Start no server yet (the test calls `spawn` itself). */
  readonly deferStart?: boolean;
}

export async function startProcessHarness(
  options: ProcessHarnessOptions = {},
): Promise<ProcessHarness> {
  const bench = await startTestBench(options.rules ?? []);
  const servers: ServerProcess[] = [];
  const close = () => endProcessTest(servers.splice(0), bench);
  try {
    const port = options.port ?? (await freePort());
    const harness: ProcessHarness = {
      bench,
      port,
      servers,
      get server(): ServerProcess {
        const latest = servers.at(-1);
        if (latest === undefined) throw new Error("no server started yet");
        return latest;
      },
      async spawn(o = {}) {
        const cwd = o.cwd ?? bench.sandbox.cwd;
        await writeTestConfig(cwd, o.config ?? options.config);
        const server = await spawnServer({
          cwd,
          port: o.port ?? port,
          env: o.env ?? options.env ?? bench.sandbox.env,
          ...((o.args ?? options.args) && { args: o.args ?? options.args }),
          ...((o.built ?? options.built) !== undefined && { built: o.built ?? options.built }),
        });
        servers.push(server);
        return server;
      },
      connect: (o = {}, server = harness.server) => a2aClient(server.url, o),
      close,
    };
    if (options.deferStart !== true) await harness.spawn();
    return harness;
  } catch (err) {
    await close();
    throw err;
  }
}
