/**
 * The baselines: the Claude Agent SDK used directly, with no server in between. A streaming-input
 * session (one process for every turn, as our server keeps one per context) and spawn-per-turn
 * (a new `query()` resuming the conversation for each turn).
 */
import { performance } from "node:perf_hooks";
import { query, type Options, type Query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { InputQueue } from "../test/support/input-queue.js";

/** One turn as its consumer saw it. */
export interface TurnTiming {
  /** From the send to the first text delta (ms). */
  readonly firstChunkMs: number;
  /** From the send to the turn's result (ms). */
  readonly finalMs: number;
  /** Text deltas received. */
  readonly deltas: number;
  /** SDK messages received. */
  readonly messages: number;
  /** The text the deltas assemble. */
  readonly text: string;
  readonly error: boolean;
}

/** Reads one turn's messages up to its `result`, timing from `start`. */
async function readTurn(next: () => Promise<IteratorResult<SDKMessage>>, start: number) {
  let firstChunkMs = Number.NaN;
  let deltas = 0;
  let messages = 0;
  const pieces: string[] = [];
  for (;;) {
    const step = await next();
    if (step.done === true) throw new Error("the SDK session ended before its turn's result");
    const m = step.value;
    messages++;
    if (m.type === "stream_event" && m.parent_tool_use_id === null) {
      const e = m.event;
      if (e.type === "content_block_delta" && e.delta.type === "text_delta") {
        if (deltas === 0) firstChunkMs = performance.now() - start;
        deltas++;
        pieces.push(e.delta.text);
      }
    }
    if (m.type === "result") {
      const finalMs = performance.now() - start;
      return { firstChunkMs, finalMs, deltas, messages, text: pieces.join(""), error: m.is_error };
    }
  }
}

/** A streaming-input SDK session: one Claude Code process for all its turns. */
export class DirectSession {
  private readonly input = new InputQueue();
  private readonly q: Query;
  sessionId: string | undefined;

  constructor(options: Options) {
    this.q = query({ prompt: this.input, options });
  }

  async turn(prompt: string): Promise<TurnTiming> {
    const start = performance.now();
    this.input.push(prompt);
    return readTurn(async () => {
      const step = await this.q.next();
      if (step.done !== true && "session_id" in step.value) this.sessionId = step.value.session_id;
      return step;
    }, start);
  }

  close(): void {
    this.input.close();
    this.q.close();
  }
}

/** One turn by a new `query()` (a new Claude Code process) that resumes `sessionId`. */
export async function spawnTurn(
  options: Options,
  prompt: string,
  sessionId: string | undefined,
): Promise<TurnTiming & { sessionId: string | undefined }> {
  const start = performance.now();
  const q = query({
    prompt,
    options: sessionId === undefined ? options : { ...options, resume: sessionId },
  });
  let seen: string | undefined;
  try {
    const timing = await readTurn(async () => {
      const step = await q.next();
      if (step.done !== true && "session_id" in step.value) seen = step.value.session_id;
      return step;
    }, start);
    return { ...timing, sessionId: seen };
  } finally {
    q.close();
  }
}
