import { spawn, type ChildProcess } from "node:child_process";
import type { SDKMessage, SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { pino, type Logger } from "pino";
import { onTestFailed } from "vitest";
import {
  ClaudeSession,
  defaultQueryFactory,
  type ClaudeSessionOptions,
  type QueryFactory,
  type QueryParams,
} from "../../src/claude/index.js";
import { TEST_MODEL, type TestBench } from "./bench.js";
import type { ParsedRequest } from "./harness/model.js";
import { recording } from "./harness/recording.js";
import { SessionEventLog } from "./session-events.js";

/**
 * `ClaudeSession` options that run the real runtime in the bench's sandbox against its scripted
 * model, with the same isolation as `bench.queryOptions()`.
 */
export function sessionOptions(
  bench: TestBench,
  extra: Partial<ClaudeSessionOptions> = {},
): ClaudeSessionOptions {
  const { sdkOptions, ...rest } = extra;
  return {
    cwd: bench.sandbox.cwd,
    env: bench.sandbox.env,
    model: TEST_MODEL,
    permissionMode: "acceptEdits",
    // Isolation: no user/project settings of the machine running the tests.
    settingSources: [],
    sdkOptions: { stderr: (data: string) => bench.stderr.push(data), ...sdkOptions },
    ...rest,
  };
}

/**
 * The production query factory, counting its calls (one call is one Claude Code process) and
 * recording every raw SDK message the session's pump reads, for assertions on runtime facts.
 */
export function countingQueryFactory(inner: QueryFactory = defaultQueryFactory) {
  const calls: QueryParams[] = [];
  const frames: SDKMessage[] = [];
  const factory: QueryFactory = (params) => {
    calls.push(params);
    return recording(inner(params), frames);
  };
  return {
    factory,
    calls,
    frames,
    get count() {
      return calls.length;
    },
  };
}

/**
 * An SDK `spawnClaudeCodeProcess` that spawns exactly as the SDK does and keeps each child, so a
 * test can find (and kill) the runtime process of a session.
 */
export function recordingSpawner(onStderr: (data: string) => void = () => undefined) {
  const children: ChildProcess[] = [];
  const spawnClaudeCodeProcess = (opts: SpawnOptions): SpawnedProcess => {
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env,
      signal: opts.signal,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    // An unread stderr pipe fills up and blocks the child.
    child.stderr?.setEncoding("utf8").on("data", (d: string) => onStderr(d));
    children.push(child);
    return child;
  };
  return { spawnClaudeCodeProcess, children };
}

/**
 * A debug-level logger that keeps its lines in memory: the session's routing, turn and lifecycle
 * logs, printed by a failing test.
 */
export function memoryLogger(): { logger: Logger; lines: string[]; tail(n?: number): string } {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line.trimEnd()) });
  return { logger, lines, tail: (n = 150) => lines.slice(-n).join("\n") };
}

/**
 * A ClaudeSession on the real runtime of `bench` (default query factory, counted), with its event
 * log; a failing test prints the session's debug log and the runtime's stderr. Close it yourself.
 */
export function openBenchSession(bench: TestBench, extra: Partial<ClaudeSessionOptions> = {}) {
  const counting = countingQueryFactory();
  const log = memoryLogger();
  const session = new ClaudeSession(
    sessionOptions(bench, { queryFactory: counting.factory, logger: log.logger, ...extra }),
  );
  onTestFailed(() => {
    console.error(`--- session debug log (tail) ---\n${log.tail()}`);
    console.error(`--- model requests ---\n${bench.model.requests.map((r) => r.rule).join(", ")}`);
    console.error(`--- runtime stderr ---\n${bench.stderr.join("").slice(-3000)}`);
  });
  return { session, counting, events: new SessionEventLog(session), log };
}

/** The messages of a model request as `role: text` lines (text blocks only), in order. */
export function requestMessages(req: ParsedRequest | undefined): string[] {
  const messages = (req?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.map((m) => {
    const blocks =
      typeof m.content === "string"
        ? [{ type: "text", text: m.content }]
        : (m.content as { type: string; text?: string }[]);
    return `${m.role}: ${blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("")}`;
  });
}
