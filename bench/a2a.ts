/** Turns through our server, as an A2A client sees them. */
import { performance } from "node:perf_hooks";
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { partsText, sendRequest, userMessage } from "../test/support/a2a/harness.js";
import type { TurnTiming } from "./direct.js";

export interface A2ATurn extends TurnTiming {
  readonly contextId: string;
}

/** Blocking SendMessage; `firstChunkMs` is the whole turn (nothing streams). */
export async function blockingTurn(
  client: Client,
  prompt: string,
  contextId = "",
): Promise<A2ATurn> {
  const start = performance.now();
  const result = await client.sendMessage(sendRequest(userMessage(prompt, { contextId })));
  const finalMs = performance.now() - start;
  const task = "status" in result ? result : undefined;
  const text = partsText(task?.artifacts[0]?.parts);
  return {
    firstChunkMs: finalMs,
    finalMs,
    deltas: 0,
    messages: 1,
    text,
    error: task?.status?.state !== TaskState.TASK_STATE_COMPLETED,
    contextId: task?.contextId ?? contextId,
  };
}

/**
 * SendStreamingMessage, read to its end: time to the first artifact chunk and to the last event,
 * events received, and the text the appends assemble.
 */
export async function streamingTurn(
  client: Client,
  prompt: string,
  contextId = "",
): Promise<A2ATurn> {
  const start = performance.now();
  let firstChunkMs = Number.NaN;
  let events = 0;
  let chunks = 0;
  let assembled = "";
  let last: StreamResponse | undefined;
  let ctx = contextId;
  for await (const event of client.sendMessageStream(
    sendRequest(userMessage(prompt, { contextId })),
  )) {
    events++;
    last = event;
    const p = event.payload;
    if (p?.$case === "task") ctx = p.value.contextId;
    if (p?.$case === "artifactUpdate" && !p.value.lastChunk) {
      if (chunks === 0) firstChunkMs = performance.now() - start;
      chunks++;
      const piece = partsText(p.value.artifact?.parts);
      assembled = p.value.append ? assembled + piece : piece;
    }
  }
  const finalMs = performance.now() - start;
  const state =
    last?.payload?.$case === "statusUpdate" ? last.payload.value.status?.state : undefined;
  return {
    firstChunkMs,
    finalMs,
    deltas: chunks,
    messages: events,
    text: assembled,
    error: state !== TaskState.TASK_STATE_COMPLETED,
    contextId: ctx,
  };
}
