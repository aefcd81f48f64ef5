/**
 * The e2e harness builder: one import for what a test starts and how it talks to it.
 *
 * - `a2a(o)`: our server in this process, the scripted model (rules), the real Claude Code
 *   runtime in a temp sandbox, an official client; closed when the test ends.
 * - `sharedA2A(o)`: the same, once for the tests of the enclosing `describe` (call at collection;
 *   the getter inside a test). For tests that do not interfere: fresh contexts, own rules.
 * - `serverProcess(o)`: `claude-a2a` as real processes on one sandbox (restart, signals, fleets).
 * - `bench(rules)`: the scripted model and a runtime sandbox alone (SDK-level tests, a config
 *   the test resolves itself); `served(bench, config)`: our server over that config.
 * - `workspaces(o)`: two workspaces, `api` and `web`, in one server in this process.
 * - `terminal(url)`, `postgres()`, `temp()`: the terminal client, PostgreSQL, a temp dir; each
 *   closed when the test ends (`shared(…)` for a file's); headless Chromium is
 *   `shared(() => startChromium())`, one browser for the file.
 * - The `start*` functions give the same things unowned (the caller closes them).
 */
import { startA2AHarness, type A2AHarness, type HarnessOptions } from "./in-process.js";
import { startProcessHarness, type ProcessHarness, type ProcessHarnessOptions } from "./process.js";
import type { Rule } from "./model.js";
import { perTest, shared } from "./scope.js";
import { delegating, peerOf } from "./peers.js";
import { startServed } from "./served.js";
import type { Config } from "../../../src/config/schema.js";
import type { RunningServer } from "../../../src/app/server.js";
import { startTestBench, type TestBench } from "../bench.js";
import { startPostgres, type Postgres } from "./services.js";
import { tempDir, type TempDir } from "./temp.js";
import {
  startTwoWorkspaces,
  type TwoWorkspacesHarness,
  type TwoWorkspacesOptions,
} from "./workspaces.js";
import { startTerminalClient, type TerminalClient } from "./terminal.js";

export const a2a = async (options?: HarnessOptions): Promise<A2AHarness> =>
  perTest(await startA2AHarness(options));

/** Call at collection; inside a test, `server(rules)` is the shared harness, reset for it. */
export function sharedA2A(options?: HarnessOptions): (rules?: readonly Rule[]) => A2AHarness {
  const get = shared(() => startA2AHarness(options));
  return (rules) => {
    const h = get();
    h.reset(rules);
    return h;
  };
}

/**
 * Server B from `bOptions`, and server A with B as its peer `b` (docs/peers.md), whose Claude on
 * `prompt` asks B `text` and relays B's answer.
 */
export async function peerPair(
  bOptions: HarnessOptions,
  prompt: string,
  text: string,
): Promise<{ a: A2AHarness; b: A2AHarness }> {
  const b = await a2a(bOptions);
  const a = await a2a({ config: peerOf(b), rules: delegating(prompt, { agent: "b", text }) });
  return { a, b };
}

export const serverProcess = async (options?: ProcessHarnessOptions): Promise<ProcessHarness> =>
  perTest(await startProcessHarness(options));

export const bench = async (rules?: readonly Rule[]): Promise<TestBench> =>
  perTest(await startTestBench(rules));

export const served = async (b: TestBench, config: Config): Promise<RunningServer> =>
  perTest(await startServed(b, config));

export const terminal = async (url: string): Promise<TerminalClient> =>
  perTest(await startTerminalClient(url));

export const postgres = async (): Promise<Postgres> => perTest(await startPostgres());

/** Two workspaces (`api`, `web`) in one server in this process. */
export const workspaces = async (o?: TwoWorkspacesOptions): Promise<TwoWorkspacesHarness> =>
  perTest(await startTwoWorkspaces(o));

export const temp = async (prefix?: string): Promise<TempDir> => perTest(await tempDir(prefix));

export * from "./in-process.js";
export * from "./process.js";
export * from "./clients.js";
export * from "./messages.js";
export * from "./metrics.js";
export * from "./model.js";
export * from "./model-requests.js";
export * from "./peers.js";
export * from "./hostile-caller.js";
export * from "./ports.js";
export * from "./rules.js";
export * from "./runtime-processes.js";
export * from "./scope.js";
export * from "./served.js";
export * from "./services.js";
export * from "./session-map.js";
export * from "./temp.js";
export * from "./terminal.js";
export * from "./tokens.js";
export * from "./wire.js";
export * from "./workspaces.js";
export * from "../a2a/stream-view.js";
export { watch } from "../a2a/watch.js";
export * from "../bench.js";
export * from "../server-process.js";
export * from "./transcripts.js";
