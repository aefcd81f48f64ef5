/**
 * The Agent SDK's `query()` in its own process, one streaming-input session for all its turns:
 * its options as one JSON line in argv[2]; then one prompt per line on stdin, and one JSON line
 * out per turn: the time from the prompt to the first and the last text delta (with partial
 * messages) and to the turn's `result`.
 */
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { query, type Options } from "@anthropic-ai/claude-agent-sdk";
import { InputQueue } from "../../test/support/input-queue.js";

const options = JSON.parse(process.argv[2] ?? "{}") as Options;
const input = new InputQueue();
const q = query({ prompt: input, options });

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const start = performance.now();
  input.push(line);
  let firstChunkMs = Number.NaN;
  let lastChunkMs = Number.NaN;
  let messages = 0;
  let error = "";
  for (;;) {
    const step = await q.next();
    if (step.done === true) {
      error = "the session ended";
      break;
    }
    const m = step.value;
    messages++;
    if (m.type === "stream_event" && m.event.type === "content_block_delta") {
      lastChunkMs = performance.now() - start;
      if (Number.isNaN(firstChunkMs)) firstChunkMs = lastChunkMs;
    }
    if (m.type === "result") {
      if (m.is_error) error = m.subtype;
      break;
    }
  }
  const finalMs = performance.now() - start;
  process.stdout.write(
    `${JSON.stringify({ firstChunkMs, lastChunkMs, finalMs, messages, error })}\n`,
  );
}
input.close();
q.close();
