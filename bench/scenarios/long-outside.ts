/**
 * The long answer measured from outside the bench's process: a plain HTTP client in a process of
 * its own reads a 5,000-delta answer's server-sent events to the end of the response, against
 * the Agent SDK's `query()` in a process of its own reading the same scripted answer to its
 * `result`, with partial messages (what the server itself asks of the runtime, to stream) and
 * without (the runtime then writes no delta at all). Warm on both sides, interleaved. A paired
 * row beside the ratio of the medians: each round's SSE time over the same round's `query()` time
 * (a slow moment of the machine then weighs on both sides of one ratio).
 */
import { queryClient, sseClient, type QueryTiming, type SseTiming } from "../outside.js";
import type { Plan } from "../plan.js";
import { longPrompt, type Rig } from "../rig.js";
import type { Row } from "../stats.js";

const N = 5_000;

export async function longOutside(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const scenario = "long answer";
  const group = `outside, N=${N.toLocaleString("en-US")}`;
  const sse = sseClient();
  const partial = queryClient(rig.directOptions());
  const whole = queryClient(rig.directOptions({ includePartialMessages: false }));
  const url = rig.server.url;
  const toFinal: number[] = [];
  const toEnd: number[] = [];
  const firstChunk: number[] = [];
  const queryPartial: number[] = [];
  const queryFirst: number[] = [];
  // From the last text chunk to the end: what comes after the model's answer on each side.
  const sseTail: number[] = [];
  const queryTail: number[] = [];
  const queryWhole: number[] = [];
  const paired: number[] = [];
  try {
    const warm = await sse.ask<SseTiming>(JSON.stringify({ url, prompt: longPrompt(N, "o-w") }));
    const contextId = warm.contextId;
    await partial.ask<QueryTiming>(longPrompt(N, "o-w"));
    await whole.ask<QueryTiming>(longPrompt(N, "o-w"));
    for (let round = 0; round < plan.outsideRounds; round++) {
      const tag = `o${round}`;
      const a2a = async () => {
        const t = await sse.ask<SseTiming>(
          JSON.stringify({ url, prompt: longPrompt(N, tag), contextId }),
        );
        if (t.error !== undefined || t.state !== "TASK_STATE_COMPLETED") {
          log(`long answer outside: the SSE client saw ${t.error ?? t.state}`);
        }
        toFinal.push(t.finalStatusMs);
        toEnd.push(t.endMs);
        firstChunk.push(t.firstChunkMs);
        sseTail.push(t.endMs - t.lastChunkMs);
      };
      const direct = async () => {
        const p = await partial.ask<QueryTiming>(longPrompt(N, tag));
        const w = await whole.ask<QueryTiming>(longPrompt(N, tag));
        if (p.error !== "" || w.error !== "")
          log(`long answer outside: query() ${p.error}${w.error}`);
        queryPartial.push(p.finalMs);
        queryFirst.push(p.firstChunkMs);
        queryTail.push(p.finalMs - p.lastChunkMs);
        queryWhole.push(w.finalMs);
      };
      // Alternate which side goes first, so neither always follows the other.
      if (round % 2 === 0) {
        await a2a();
        await direct();
      } else {
        await direct();
        await a2a();
      }
      paired.push((toEnd.at(-1) as number) / (queryPartial.at(-1) as number));
    }
  } finally {
    await Promise.all([sse.close(), partial.close(), whole.close()]);
  }
  return [
    {
      scenario,
      group,
      variant: "query() process, partial messages, to result",
      unit: "ms",
      samples: queryPartial,
      baseline: true,
    },
    {
      scenario,
      group,
      variant: "plain HTTP process, SSE to response end",
      unit: "ms",
      samples: toEnd,
      target: "≤ 1.2×",
    },
    {
      scenario,
      group: `${group}, paired`,
      variant: "SSE to response end over query() to result, same round",
      unit: "×",
      samples: paired,
    },
    {
      scenario,
      group,
      variant: "plain HTTP process, SSE to final status",
      unit: "ms",
      samples: toFinal,
    },
    {
      scenario,
      group,
      variant: "plain HTTP process, SSE to first chunk",
      unit: "ms",
      samples: firstChunk,
    },
    {
      scenario,
      group,
      variant: "query() process, to first chunk",
      unit: "ms",
      samples: queryFirst,
    },
    {
      scenario,
      group: `${group}, last chunk to end`,
      variant: "query() process, to result",
      unit: "ms",
      samples: queryTail,
      baseline: true,
    },
    {
      scenario,
      group: `${group}, last chunk to end`,
      variant: "plain HTTP process, to response end",
      unit: "ms",
      samples: sseTail,
    },
    {
      scenario,
      group,
      variant: "query() process, no partial messages, to result",
      unit: "ms",
      samples: queryWhole,
    },
  ];
}
