import { TaskState, type StreamResponse, type Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  generationMismatch,
  parseGeneration,
  withItemGeneration,
  withTaskGeneration,
} from "../../../../src/a2a/handler/generations.js";
import { generationStatus } from "../../../../src/grpc/answers.js";
import { isGenerationMismatch } from "../../../../src/contract/generations.js";

const task = (metadata: Record<string, unknown> | undefined): Task => ({
  id: "t1",
  contextId: "c1",
  status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: "" },
  artifacts: [],
  history: [],
  metadata,
});
const status = (metadata: Record<string, unknown> | undefined): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: "t1",
      contextId: "c1",
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: "" },
      metadata,
    },
  },
});

describe("generations over event numbers", () => {
  it("gives a task and an update the generation of their event number, and nothing without one", () => {
    expect(withTaskGeneration(task({ eventNumber: 7, kind: "x" })).metadata).toEqual({
      eventNumber: 7,
      kind: "x",
      generation: 7,
    });
    expect(withTaskGeneration(task(undefined)).metadata).toBeUndefined();
    const item = withItemGeneration(status({ eventNumber: 3 }));
    expect(item.payload?.$case === "statusUpdate" && item.payload.value.metadata).toEqual({
      eventNumber: 3,
      generation: 3,
    });
    const snapshot = withItemGeneration({
      payload: { $case: "task", value: task({ eventNumber: 2 }) },
    });
    expect(snapshot.payload?.value.metadata).toMatchObject({ generation: 2 });
  });

  it.each<[unknown, number | undefined]>([
    [undefined, undefined],
    ["", undefined],
    ["0", 0],
    [" 12 ", 12],
    [5, 5],
  ])("reads %j as %j", (raw, n) => {
    expect(parseGeneration("currentGeneration", raw)).toBe(n);
  });

  it.each([["-1"], ["abc"], [1.5], ["1e3"]])(
    "refuses %j as InvalidParams, naming the field",
    (raw) => {
      expect(() => parseGeneration("ifGenerationMatch", raw)).toThrow(RequestMalformedError);
      expect(() => parseGeneration("ifGenerationMatch", raw)).toThrow(/^ifGenerationMatch must be/);
    },
  );

  it("refuses a stale ifGenerationMatch with the mismatch text each binding recognises", () => {
    expect(generationMismatch("t1", 4, 4)).toBeUndefined();
    const why = generationMismatch("t1", 3, 4) ?? "";
    expect(why).toBe(
      "Task t1 is at generation 4, not 3 (ifGenerationMatch): it has moved since; read it again, then send.",
    );
    expect(isGenerationMismatch(why)).toBe(true);
    expect(isGenerationMismatch("Task t1 is still working")).toBe(false);
    expect(
      generationStatus({ code: Status.FAILED_PRECONDITION, details: why, metadata: null }),
    ).toEqual({
      code: Status.ABORTED,
      details: why,
      metadata: null,
    });
    const other = { code: Status.FAILED_PRECONDITION, details: "no", metadata: null };
    expect(generationStatus(other)).toBe(other);
  });
});
