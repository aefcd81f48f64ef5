/**
 * Our server in this process over a config the test resolved itself (several workspaces, a
 * symlinked workspace): what `a2a()` does not choose for it. The runtime runs in the bench's
 * sandbox, against its scripted model.
 */
import { pino } from "pino";
import type { Config } from "../../../src/config/schema.js";
import { startServer, type RunningServer } from "../../../src/app/server.js";
import type { TestBench } from "../bench.js";

/** `startServer(config)` with the test logger, the sandbox's environment and stderr collected. */
export const startServed = (bench: TestBench, config: Config): Promise<RunningServer> =>
  startServer({
    config,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    claudeEnv: bench.sandbox.env,
    sdkOptions: { stderr: (d) => bench.stderr.push(d) },
  });

/** Closes `server`, then `bench` whether or not the server closed cleanly. */
export async function closeServed(server: RunningServer, bench: TestBench): Promise<void> {
  try {
    await server.close();
  } finally {
    await bench.close();
  }
}
