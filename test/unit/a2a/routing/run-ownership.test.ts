import { describe, expect, it } from "vitest";
import {
  liveState,
  RunOwnership,
  type LiveState,
  type OwnedTask,
} from "../../../../src/a2a/routing/run-ownership.js";
import type { TaskPhase } from "../../../../src/a2a/task/lifecycle.js";
import { conversationKey } from "../../../../src/identity/conversation.js";

interface FakeTask extends OwnedTask {
  phase: TaskPhase;
}

const key = (contextId: string) => conversationKey({ owner: "", contextId });

const task = (taskId: string, contextId = "c-1", phase: TaskPhase = { name: "running" }) =>
  ({ ref: { taskId, contextId }, conversation: key(contextId), phase }) as FakeTask;

describe("liveState", () => {
  const rows: [TaskPhase | undefined, LiveState | undefined][] = [
    [undefined, undefined],
    [{ name: "queued" }, "working"],
    [{ name: "starting" }, "working"],
    [{ name: "running" }, "working"],
    [{ name: "waiting" }, "working"],
    [{ name: "parked" }, "parked"],
    [{ name: "ended", outcome: { state: "completed" } }, undefined],
    [{ name: "ended", outcome: { state: "canceled" } }, undefined],
  ];
  for (const [phase, expected] of rows) {
    it(`${phase?.name ?? "no task"} → ${expected ?? "not live"}`, () => {
      expect(liveState(phase)).toBe(expected);
    });
  }
});

describe("RunOwnership: tasks by id", () => {
  it("a task is active from add until it ends, and known until it is removed", () => {
    const own = new RunOwnership<FakeTask>();
    const a = task("t-1");
    expect(own.isActive("t-1")).toBe(false);
    own.add(a);
    expect(own.task("t-1")).toBe(a);
    expect(own.isActive("t-1")).toBe(true);
    a.phase = { name: "parked" };
    expect(own.liveState("t-1")).toBe("parked");
    a.phase = { name: "ended", outcome: { state: "failed", reason: "x" } };
    expect(own.isActive("t-1")).toBe(false);
    expect(own.task("t-1")).toBe(a);
    own.remove(a);
    expect(own.task("t-1")).toBeUndefined();
  });

  it("removing a task that was replaced under its id leaves the newer one", () => {
    const own = new RunOwnership<FakeTask>();
    const older = task("t-1");
    const newer = task("t-1");
    own.add(older);
    own.add(newer);
    own.remove(older);
    expect(own.task("t-1")).toBe(newer);
  });
});

describe("RunOwnership: runs", () => {
  const rows: {
    name: string;
    owned: [string, string][];
    disowned: string[];
    ask: string | undefined;
    expected: string | undefined;
  }[] = [
    {
      name: "an owned run reaches its task",
      owned: [["r-1", "t-1"]],
      disowned: [],
      ask: "r-1",
      expected: "t-1",
    },
    {
      name: "a run nobody owns reaches no task",
      owned: [["r-1", "t-1"]],
      disowned: [],
      ask: "r-2",
      expected: undefined,
    },
    {
      name: "no run at all reaches no task",
      owned: [["r-1", "t-1"]],
      disowned: [],
      ask: undefined,
      expected: undefined,
    },
    {
      name: "a disowned run reaches no task",
      owned: [["r-1", "t-1"]],
      disowned: ["r-1"],
      ask: "r-1",
      expected: undefined,
    },
    {
      name: "each run reaches its own task",
      owned: [
        ["r-1", "t-1"],
        ["r-2", "t-2"],
      ],
      disowned: [],
      ask: "r-2",
      expected: "t-2",
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const own = new RunOwnership<FakeTask>();
      for (const [runId, taskId] of row.owned) own.own(runId, task(taskId));
      for (const runId of row.disowned) own.disown(runId);
      expect(own.ofRun(row.ask)?.ref.taskId).toBe(row.expected);
    });
  }
});

describe("RunOwnership: background work", () => {
  const work = (
    over: Partial<{ taskId: string; runId: string; backgrounded: boolean; ambient: boolean }> = {},
  ) => ({
    taskId: "bg-1",
    runId: "r-1",
    backgrounded: true,
    ambient: false,
    ...over,
  });
  const rows: { name: string; work: ReturnType<typeof work>; launcher: string | undefined }[] = [
    {
      name: "background work of an owned run: its task launched it",
      work: work(),
      launcher: "t-1",
    },
    {
      name: "a subagent its tool call blocks on is not background work",
      work: work({ backgrounded: false }),
      launcher: undefined,
    },
    { name: "ambient work belongs to no task", work: work({ ambient: true }), launcher: undefined },
    {
      name: "work of a run nobody owns belongs to no task",
      work: work({ runId: "r-9" }),
      launcher: undefined,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const own = new RunOwnership<FakeTask>();
      own.own("r-1", task("t-1"));
      expect(own.launched(row.work)?.ref.taskId).toBe(row.launcher);
      expect(own.launcher("bg-1")?.ref.taskId).toBe(row.launcher);
      expect(own.retainedLaunches).toBe(row.launcher === undefined ? 0 : 1);
    });
  }

  it("work of no run belongs to no task", () => {
    const own = new RunOwnership<FakeTask>();
    own.own("r-1", task("t-1"));
    const { runId: _runId, ...noRun } = work();
    expect(own.launched(noRun)).toBeUndefined();
  });

  it("a second notice of the same work is no news: the first launcher stays", () => {
    const own = new RunOwnership<FakeTask>();
    own.own("r-1", task("t-1"));
    own.own("r-2", task("t-2"));
    expect(own.launched(work())?.ref.taskId).toBe("t-1");
    expect(own.launched(work({ runId: "r-2" }))).toBeUndefined();
    expect(own.launcher("bg-1")?.ref.taskId).toBe("t-1");
  });

  it("the launcher outlives its run (the wake comes after the run ended)", () => {
    const own = new RunOwnership<FakeTask>();
    own.own("r-1", task("t-1"));
    own.launched(work());
    own.disown("r-1");
    expect(own.launcher("bg-1")?.ref.taskId).toBe("t-1");
  });

  it("consumed once: its launcher is returned, then forgotten", () => {
    const own = new RunOwnership<FakeTask>();
    own.own("r-1", task("t-1"));
    own.launched(work());
    expect(own.consume("bg-1")?.ref.taskId).toBe("t-1");
    expect(own.consume("bg-1")).toBeUndefined();
    expect(own.launcher("bg-1")).toBeUndefined();
    expect(own.retainedLaunches).toBe(0);
  });

  it("forgetting a conversation drops its launches only", () => {
    const own = new RunOwnership<FakeTask>();
    own.own("r-1", task("t-1", "c-1"));
    own.own("r-2", task("t-2", "c-2"));
    own.launched(work({ taskId: "bg-1", runId: "r-1" }));
    own.launched(work({ taskId: "bg-2", runId: "r-2" }));
    own.forget(key("c-1"));
    expect(own.launcher("bg-1")).toBeUndefined();
    expect(own.launcher("bg-2")?.ref.taskId).toBe("t-2");
    expect(own.retainedLaunches).toBe(1);
  });
});
