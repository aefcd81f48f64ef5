import { describe, expect, it } from "vitest";
import { BackgroundTaskRegistry } from "../../../src/claude/background-tasks.js";
import { Normalizer } from "../../../src/claude/normalize.js";
import { silentLogger } from "./support/helpers.js";
import { sdk } from "./support/sdk-messages.js";

function registry(owners: Record<string, string> = { "tu-1": "run-1", "tu-2": "run-2" }) {
  const n = new Normalizer();
  const r = new BackgroundTaskRegistry(silentLogger, (id) => owners[id]);
  return { r, apply: (m: unknown) => r.apply(n.normalize(m)) };
}

describe("BackgroundTaskRegistry", () => {
  it("maps task_id → tool_use_id → the run that launched it", () => {
    const { r, apply } = registry();
    expect(apply(sdk.taskStarted("t1", "tu-1"))).toMatchObject([
      { type: "started", task: { taskId: "t1", runId: "run-1" } },
    ]);
    expect(r.runForTask("t1")).toBe("run-1");
    expect(r.runForTask("nope")).toBeUndefined();
  });

  it("replaces the whole live set on background_tasks_changed", () => {
    const { r, apply } = registry();
    apply(sdk.tasksChanged(["t1", "t2"]));
    apply(sdk.taskStarted("t1", "tu-1"));
    apply(sdk.taskStarted("t2", "tu-2"));
    expect(r.live().map((t) => t.taskId)).toEqual(["t1", "t2"]);
    const changes = apply(sdk.tasksChanged(["t2"]));
    expect(r.live().map((t) => t.taskId)).toEqual(["t2"]);
    // t1 left without a notification: it is over.
    expect(changes).toMatchObject([{ type: "finished", task: { taskId: "t1", status: "gone" } }]);
    apply(sdk.tasksChanged([]));
    expect(r.live()).toEqual([]);
  });

  it("attributes a task first seen in the live set once task_started names its tool use", () => {
    const { r, apply } = registry();
    expect(apply(sdk.tasksChanged(["t1"]))).toMatchObject([
      { type: "started", task: { taskId: "t1" } },
    ]);
    expect(r.runForTask("t1")).toBeUndefined();
    expect(apply(sdk.taskStarted("t1", "tu-1"))).toMatchObject([
      { type: "attributed", task: { runId: "run-1" } },
    ]);
  });

  it("task_notification marks the task done, once", () => {
    const { r, apply } = registry();
    apply(sdk.taskStarted("t1", "tu-1"));
    expect(apply(sdk.taskNotification("t1", "tu-1", "failed"))).toMatchObject([
      { type: "finished", task: { status: "failed", runId: "run-1", outputFile: "/tmp/t1.out" } },
    ]);
    expect(apply(sdk.taskNotification("t1", "tu-1", "failed"))).toEqual([]);
    expect(r.get("t1")?.status).toBe("failed");
    // A task only announced by its notification is still registered and attributed.
    expect(apply(sdk.taskNotification("t9", "tu-2"))).toMatchObject([
      { type: "started", task: { taskId: "t9" } },
      { type: "finished", task: { runId: "run-2", status: "completed" } },
    ]);
  });
});
