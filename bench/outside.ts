/**
 * Clients in processes of their own, driven one JSON line at a time: the long-answer measure
 * from outside the bench's process (the bench's own event loop, the A2A SDK client's parsing and
 * the direct session's consumer then cost neither side anything).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Options } from "@anthropic-ai/claude-agent-sdk";

const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
const script = (name: string) => fileURLToPath(new URL(`./outside/${name}`, import.meta.url));

export interface OutsideClient {
  /** The client's process id (its CPU time is in `/proc`). */
  readonly pid: number;
  /** Writes `line` and resolves with the JSON line the client answers. */
  ask<T>(line: string): Promise<T>;
  close(): Promise<void>;
}

function start(args: readonly string[], env?: Record<string, string>): OutsideClient {
  const child: ChildProcess = spawn(process.execPath, ["--import", TSX, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
    ...(env && { env }),
  });
  const lines: Interface = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    pid: child.pid ?? 0,
    ask: <T>(line: string) =>
      new Promise<T>((resolve, reject) => {
        waiting.push((answer) => resolve(JSON.parse(answer) as T));
        child.stdin!.write(`${line}\n`, (err) => err && reject(err));
      }),
    async close() {
      child.stdin!.end();
      const done = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 10_000).unref()),
      ]);
      if (!done) child.kill("SIGKILL");
      lines.close();
    },
  };
}

export interface SseTiming {
  readonly firstChunkMs: number;
  readonly lastChunkMs: number;
  /** To the event carrying the final status. */
  readonly finalStatusMs: number;
  /** To the end of the HTTP response. */
  readonly endMs: number;
  readonly events: number;
  readonly state: string;
  readonly contextId: string;
  readonly error?: string;
}

export interface QueryTiming {
  readonly firstChunkMs: number;
  readonly lastChunkMs: number;
  readonly finalMs: number;
  readonly messages: number;
  readonly error: string;
}

/** A plain HTTP SSE client process (`outside/sse-client.ts`). */
export function sseClient(): OutsideClient {
  return start([script("sse-client.ts")]);
}

/** A process holding one streaming-input `query()` session (`outside/query-client.ts`). */
export function queryClient(options: Options): OutsideClient {
  const { env, ...rest } = options;
  return start([script("query-client.ts"), JSON.stringify(rest)], env as Record<string, string>);
}
