/**
 * In-process, interleaved: the server's per-delta path of a long streamed answer, from the SDK's
 * message to the A2A task's text artifact. A real ClaudeSession (pump, normalizer, router,
 * timeline, session events, run channel) is driven through its query-factory seam by a scripted
 * query holding an N-delta answer (one character per delta, as `bench-long` sends), and its run
 * stream is read the way a task reads it (`for await`, into an `AssistantTextArtifact` with the
 * default coalescing). Two builds side by side, each from its `dist/`: the "before" one (a path,
 * default `/tmp/b22/old`) and this worktree's. Prints the median CPU per delta of each.
 *
 *   npm run build && npx tsx bench/micro/delta-path.ts [rounds=7] [deltas=20000] [before=/tmp/b22/old] [after=.]
 */
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import type { ClaudeSession } from "../../src/claude/session.js";
import type { ClaudeSessionOptions } from "../../src/claude/options.js";
import type { QueryHandle, QueryParams } from "../../src/claude/sdk.js";
import type { AssistantTextArtifact } from "../../src/a2a/task/assistant-text.js";
import { realTimers } from "../../src/common/timers.js";
import { median } from "../stats.js";

const [roundsArg, deltasArg, beforeArg, afterArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 7);
const deltas = Number(deltasArg ?? 20_000);
const beforeRoot = resolve(beforeArg ?? "/tmp/b22/old");
const afterRoot = resolve(afterArg ?? resolve(import.meta.dirname, "../.."));
const SESSION = "11111111-1111-4111-8111-111111111111";

interface Build {
  name: string;
  Session: new (o: ClaudeSessionOptions) => ClaudeSession;
  Artifact: typeof AssistantTextArtifact;
}

async function load(name: string, root: string): Promise<Build> {
  const url = (p: string) => pathToFileURL(resolve(root, "dist", p)).href;
  const session = (await import(url("claude/session.js"))) as { ClaudeSession: Build["Session"] };
  const text = (await import(url("a2a/task/assistant-text.js"))) as {
    AssistantTextArtifact: Build["Artifact"];
  };
  return { name, Session: session.ClaudeSession, Artifact: text.AssistantTextArtifact };
}

/** The answer's frames as the runtime sends them, stamped with the send they answer. */
function answer(stamp: string, n: number): unknown[] {
  let seq = 0;
  const frame = (event: unknown) => ({
    type: "stream_event",
    event,
    parent_tool_use_id: null,
    session_id: SESSION,
    uuid: `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`,
    user_message_uuid: stamp,
    user_message_uuids: [stamp],
  });
  const text = "x".repeat(n);
  return [
    { type: "system", subtype: "init", session_id: SESSION, uuid: "init", model: "m", cwd: "/" },
    frame({ type: "message_start", message: { id: "msg_long", content: [] } }),
    frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...Array.from({ length: n }, () =>
      frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } }),
    ),
    frame({ type: "content_block_stop", index: 0 }),
    {
      type: "assistant",
      message: { id: "msg_long", role: "assistant", content: [{ type: "text", text }] },
      parent_tool_use_id: null,
      session_id: SESSION,
      uuid: "complete",
      user_message_uuid: stamp,
      user_message_uuids: [stamp],
    },
    frame({ type: "message_delta", delta: { stop_reason: "end_turn" } }),
    frame({ type: "message_stop" }),
    {
      type: "result",
      subtype: "success",
      is_error: false,
      result: text,
      errors: [],
      num_turns: 1,
      total_cost_usd: 0,
      duration_ms: 1,
      session_id: SESSION,
      uuid: "result",
      user_message_uuid: stamp,
      user_message_uuids: [stamp],
    },
  ];
}

/** Holds the whole answer once the prompt is sent: every `next()` resolves at once, as a burst. */
class BurstQuery implements QueryHandle {
  private frames: unknown[] = [];
  private at = 0;
  private waiting: ((r: IteratorResult<never, void>) => void) | undefined;
  private ended = false;

  constructor(params: QueryParams) {
    void (async () => {
      for await (const message of params.prompt) {
        this.frames = answer(String(message.uuid), deltas);
        this.at = 0;
        this.wake();
      }
    })();
  }

  next(): Promise<IteratorResult<never, void>> {
    if (this.at < this.frames.length) {
      return Promise.resolve({ value: this.frames[this.at++] as never, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((r) => (this.waiting = r));
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    if (w !== undefined) void this.next().then(w);
  }

  interrupt = () => Promise.resolve();
  stopTask = () => Promise.resolve();
  setModel = () => Promise.resolve();
  applyFlagSettings = () => Promise.resolve();
  setPermissionMode = () => Promise.resolve();
  close(): void {
    this.ended = true;
    this.wake();
  }
}

/** One long answer through a fresh session; returns the CPU and wall time it took (µs). */
async function once(build: Build): Promise<{ cpu: number; wall: number; chars: number }> {
  const session = new build.Session({
    cwd: "/",
    logger: pino({ level: "info" }, { write: () => undefined }),
    queryFactory: (params) => new BurstQuery(params),
    historyLoader: () => Promise.resolve([]),
    usageBaselineLoader: () => Promise.resolve(undefined),
  });
  // Listeners like the server's (pool, executor, metrics): they see every session event.
  let seen = 0;
  for (let i = 0; i < 3; i++) session.subscribe(() => void seen++);
  let published = 0;
  const text = new build.Artifact(
    { taskId: "t", contextId: "c" },
    "response",
    (e) => void (published += e.artifact?.parts.length ?? 0),
    { timers: realTimers, flushMs: 50, maxChunkChars: 8192 },
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for await (const event of session.stream("bench-long")) {
    if (event.kind === "stream" || event.kind === "assistant") text.onEvent(event);
  }
  text.finish();
  const wall = (performance.now() - t0) * 1000;
  const used = process.cpuUsage(cpu0);
  await session.close();
  if (seen === 0 || published === 0) throw new Error("nothing streamed");
  return { cpu: used.user + used.system, wall, chars: deltas };
}

const builds = [await load("before", beforeRoot), await load("after", afterRoot)];
const cpu = new Map<string, number[]>(builds.map((b) => [b.name, []]));
const wall = new Map<string, number[]>(builds.map((b) => [b.name, []]));
for (const b of builds) await once(b); // warm-up: JIT both before measuring either
for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
    const m = await once(b);
    cpu.get(b.name)?.push(m.cpu / deltas);
    wall.get(b.name)?.push(m.wall / deltas);
  }
}
const base = median(cpu.get("before") ?? []);
for (const b of builds) {
  const c = median(cpu.get(b.name) ?? []);
  const w = median(wall.get(b.name) ?? []);
  console.log(
    `${b.name.padEnd(7)} CPU ${c.toFixed(2)} µs/delta (${(c / base).toFixed(2)}×), ` +
      `wall ${w.toFixed(2)} µs/delta, ${rounds} rounds of ${deltas} deltas`,
  );
}
