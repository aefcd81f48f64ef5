import type { Part, StreamResponse, Task } from "@a2a-js/sdk";
import { messageText } from "./harness.js";

/** An AskUserQuestion question, its options given as [label, description]. */
export const question = (
  text: string,
  header: string,
  options: readonly (readonly [string, string])[],
  multiSelect = false,
) => ({
  question: text,
  header,
  options: options.map(([label, description]) => ({ label, description })),
  multiSelect,
});

/** Shared fixture: the docs' example question. */
export const COLOUR_QUESTION = question("Which colour do you prefer?", "Colour", [
  ["red", "Choose red"],
  ["blue", "Choose blue"],
]);

export const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

/** The task a stream starts with; throws when it starts otherwise. */
export function headTask(events: readonly StreamResponse[]): Task {
  const first = events[0]?.payload;
  if (first?.$case !== "task") throw new Error("the stream did not start with a task");
  return first.value;
}

/** The ids to answer or continue the task a stream started with. */
export const idsOf = (events: readonly StreamResponse[]) => {
  const task = headTask(events);
  return { taskId: task.id, contextId: task.contextId };
};

/** The last status update of a stream: state, kind, text and data part. */
export function lastStatus(events: readonly StreamResponse[]) {
  const update = events
    .flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value] : []))
    .at(-1);
  const message = update?.status?.message;
  const data = message?.parts.find((p) => p.content?.$case === "data")?.content;
  return {
    state: update?.status?.state,
    kind: message?.metadata?.kind as string | undefined,
    text: messageText(message),
    data: data?.$case === "data" ? (data.value as Record<string, unknown>) : undefined,
  };
}

/** The text of the last `result` status message. */
export const resultText = (events: readonly StreamResponse[]): string =>
  events
    .flatMap((e) =>
      e.payload?.$case === "statusUpdate" &&
      e.payload.value.status?.message?.metadata?.kind === "result"
        ? [messageText(e.payload.value.status.message)]
        : [],
    )
    .at(-1) ?? "";
