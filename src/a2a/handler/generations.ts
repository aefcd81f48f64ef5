import type { StreamResponse, Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { GENERATION_KEY, GENERATION_TEXT } from "../../contract/generations.js";
import { eventNumberOf } from "../channel/event-numbers.js";
import { numberInMetadata } from "./replay-request.js";

/**
 * The v1.1 generations over our event numbers: what a task and a stream item say, and what a
 * request asks. Pure.
 */

const withGeneration = (metadata: Record<string, unknown> | undefined, n: number | undefined) =>
  n === undefined ? metadata : { ...metadata, [GENERATION_KEY]: n };

/** A task's generation: the number of the last event it reflects. */
export const generationOf = (task: Task): number | undefined => numberInMetadata(task.metadata);

/** The task with its generation in `metadata.generation` (a copy). */
export const withTaskGeneration = (task: Task): Task => ({
  ...task,
  metadata: withGeneration(task.metadata, generationOf(task)),
});

/** A stream item with its generation: an update's is its event number, a snapshot's its task's. */
export function withItemGeneration(item: StreamResponse): StreamResponse {
  const p = item.payload;
  switch (p?.$case) {
    case "task":
      return { payload: { $case: "task", value: withTaskGeneration(p.value) } };
    case "statusUpdate":
      return {
        payload: {
          $case: "statusUpdate",
          value: { ...p.value, metadata: withGeneration(p.value.metadata, eventNumberOf(item)) },
        },
      };
    case "artifactUpdate":
      return {
        payload: {
          $case: "artifactUpdate",
          value: { ...p.value, metadata: withGeneration(p.value.metadata, eventNumberOf(item)) },
        },
      };
    case "message":
    case undefined:
      return item;
  }
}

/** A generation a request gives (a header's text, a metadata value): undefined when none. */
export function parseGeneration(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const text = typeof raw === "string" || typeof raw === "number" ? String(raw).trim() : "";
  if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  throw new RequestMalformedError(GENERATION_TEXT.notAGeneration(name, JSON.stringify(raw)));
}

/** Why a message with `ifGenerationMatch` must be refused; undefined when it matches. */
export function generationMismatch(
  taskId: string,
  expected: number,
  current: number | undefined,
): string | undefined {
  const now = current ?? 0;
  return now === expected ? undefined : GENERATION_TEXT.mismatch(taskId, expected, now);
}
