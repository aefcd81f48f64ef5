/**
 * `npm run bench`: figures, not pass/fail. Our server + the REAL Claude Code runtime + the scripted
 * model (so the model's own latency is ~0 and what is measured is ours and the runtime's), driven
 * through the official A2A client over HTTP on 127.0.0.1.
 *
 *   cold task     first task of a new context (spawns a Claude Code process)
 *   warm task     next task in the same context (same process)
 *   first chunk   time from send to the first streamed artifact chunk, warm
 */
import { performance } from "node:perf_hooks";
import { reply, text } from "../test/support/fake-model/index.js";
import {
  sendForTask,
  sendRequest,
  startA2AHarness,
  userMessage,
} from "../test/support/a2a/harness.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function stats(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const f = (n: number) => `${n.toFixed(0).padStart(6)} ms`;
  return `${name.padEnd(14)} n=${String(samples.length).padStart(3)}  mean ${f(mean)}  p50 ${f(pick(0.5))}  max ${f(pick(1))}`;
}

const h = await startA2AHarness({
  rules: [
    {
      match: { lastUserText: "bench" },
      reply: reply(text("A reply streamed in a few chunks for the benchmark."), { chunkSize: 12 }),
    },
  ],
});
try {
  const cold: number[] = [];
  const warm: number[] = [];
  const firstChunk: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    const first = await sendForTask(h.client, userMessage(`bench cold ${i}`));
    cold.push(performance.now() - t);
    for (let j = 0; j < 3; j++) {
      t = performance.now();
      await sendForTask(
        h.client,
        userMessage(`bench warm ${i}.${j}`, { contextId: first.contextId }),
      );
      warm.push(performance.now() - t);
    }
    t = performance.now();
    const stream = h.client.sendMessageStream(
      sendRequest(userMessage(`bench stream ${i}`, { contextId: first.contextId })),
    );
    let seen = false;
    for await (const event of stream) {
      if (!seen && event.payload?.$case === "artifactUpdate") {
        firstChunk.push(performance.now() - t);
        seen = true;
      }
    }
  }
  process.stdout.write(
    [
      `claude-a2a turn latency (scripted model, ${ROUNDS} rounds, ${h.spawns()} processes spawned)`,
      stats("cold task", cold),
      stats("warm task", warm),
      stats("first chunk", firstChunk),
      "",
    ].join("\n"),
  );
} finally {
  await h.close();
}
