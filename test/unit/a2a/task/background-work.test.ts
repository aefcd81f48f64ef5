/**
 * Background work through the task layer, driven by scripted SDK sequences: a task waits for
 * the work it started, adopts the wake it causes, gives up after its timeout (by the clock seam),
 * stops its work when canceled, and a wake nobody takes becomes an autonomous task.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it, vi } from "vitest";
import {
  autonomousTurn,
  backgroundJobFinished,
  reply,
  sdk,
  startsBackgroundJob,
} from "../../claude/support/sdk-messages.js";
import {
  describeEvent,
  idsOf,
  isState,
  sentStamp,
  contextTasks,
  firstSend,
} from "../support/agent.js";

const { TASK_STATE_COMPLETED, TASK_STATE_CANCELED } = TaskState;

/** A task whose turn started background job `t1`, now waiting for it (`claude.backgroundTasks: wait`). */
async function waitingOnJob(options?: Parameters<typeof firstSend>[1]) {
  const [h, a, stamp] = await firstSend("run it in the background", options);
  await h.fake.query.feed(...startsBackgroundJob(stamp));
  await a.until((e) => describeEvent(e) === "status:WORKING:background_wait");
  return { h, a, ...idsOf(a) };
}

describe("background work (wait)", () => {
  it("waits, adopts the wake its work causes, and completes with the wake's answer", async () => {
    const { h, a, taskId } = await waitingOnJob();
    expect(h.agent.executor.phaseOf(taskId)?.name).toBe("waiting");

    await h.fake.query.feed(
      ...backgroundJobFinished(),
      ...autonomousTurn("m3", "It finished fine."),
    );
    await a.until(isState(TASK_STATE_COMPLETED));
    expect(a.describe().slice(-4)).toEqual([
      expect.stringMatching(/^artifact:response-/),
      expect.stringMatching(/^artifact:response-/),
      "status:WORKING:result",
      "status:COMPLETED",
    ]);
    expect(a.describe()).toContain("status:WORKING:background_task");
    const stored = await h.stored(taskId);
    expect(stored?.history.at(-1)?.parts[0]?.content?.value).toBe("It finished fine.");
  });

  it("gives up after claude.backgroundWaitTimeoutMs; the later wake becomes an autonomous task", async () => {
    const { h, a } = await waitingOnJob({ config: { claude: { backgroundWaitTimeoutMs: 1_000 } } });
    h.timers.fireAll();
    await a.until(isState(TASK_STATE_COMPLETED));
    expect(a.describe().slice(-3)).toEqual([
      "status:WORKING:background_timeout",
      "status:WORKING:result",
      "status:COMPLETED",
    ]);
    const { taskId, contextId } = idsOf(a);

    await h.fake.query.feed(...backgroundJobFinished(), ...autonomousTurn("m3", "Late report."));
    await vi.waitFor(async () => expect(await contextTasks(h, contextId)).toHaveLength(2));
    const wake = (await contextTasks(h, contextId)).find((t) => t.id !== taskId);
    expect(wake?.metadata?.origin).toBe("autonomous");
    expect(wake?.history[0]?.referenceTaskIds).toEqual([taskId]);
    await vi.waitFor(async () =>
      expect((await h.stored(wake?.id ?? ""))?.status?.state).toBe(TASK_STATE_COMPLETED),
    );
  });

  it("stops waiting when its finished work's notification was folded into another turn", async () => {
    const { h, a, taskId, contextId } = await waitingOnJob();
    // The job finishes, but a new message's turn begins before any wake: it takes the news.
    await h.fake.query.feed(...backgroundJobFinished());
    const b = h.send("what happened?", { contextId });
    const stampB = await sentStamp(h, 1);
    await h.fake.query.feed(...reply(stampB, "m4", "The job finished."));
    await b.until(isState(TASK_STATE_COMPLETED));
    await a.until(isState(TASK_STATE_COMPLETED));
    expect((await h.stored(taskId))?.status?.state).toBe(TASK_STATE_COMPLETED);
  });

  it("cancel stops its background tasks", async () => {
    const { h, taskId } = await waitingOnJob();
    expect((await h.cancel(taskId)).status?.state).toBe(TASK_STATE_CANCELED);
    expect(h.fake.query.stoppedTasks).toEqual(["t1"]);
  });

  it("sessions.maxBackgroundMs: the pool stops its work; it says why (background_stopped) and completes without a wake", async () => {
    const { h, a } = await waitingOnJob({ config: { sessions: { maxBackgroundMs: 1 } } });
    // The pool's clock (real here, 1 ms) runs out: it asks the runtime to stop the job…
    await vi.waitFor(() => expect(h.fake.query.stoppedTasks).toEqual(["t1"]));
    // …which kills it and says so, and starts no turn for it.
    await h.fake.query.feed(
      sdk.taskUpdated("t1", "killed"),
      sdk.taskNotification("t1", "tu-bg", "stopped"),
      sdk.tasksChanged([]),
    );
    await a.until(isState(TASK_STATE_COMPLETED));
    expect(a.describe().slice(-3)).toEqual([
      "status:WORKING:background_stopped",
      "status:WORKING:result",
      "status:COMPLETED",
    ]);
    const event = await a.until((e) => describeEvent(e) === "status:WORKING:background_stopped");
    const stopped =
      event.payload?.$case === "statusUpdate" ? event.payload.value.status?.message : undefined;
    // Progress: in the stream, not in the stored history.
    const stored = await h.stored(idsOf(a).taskId);
    expect(stored?.history.some((m) => m.metadata?.kind === "background_stopped")).toBe(false);
    expect(stopped?.parts[0]?.content?.value).toBe(
      "Background task t1 (t1) stopped: the server stopped it after 1 ms with no other activity " +
        "in its session (sessions.maxBackgroundMs).",
    );
    expect(stopped?.metadata).toMatchObject({ taskId: "t1", status: "stopped" });
  });
});

describe("background work (detach)", () => {
  it("completes at the turn's result; the wake is an autonomous task that inherits push configs", async () => {
    const [h, a, stamp] = await firstSend("run it in the background", {
      // The webhook below is on loopback, refused by default.
      config: { server: { pushAllowPrivateNetworks: true }, claude: { backgroundTasks: "detach" } },
    });
    const { taskId, contextId } = await (async () => {
      await a.until((e) => e.payload?.$case === "task");
      return idsOf(a);
    })();
    await h.agent.requestHandler.createTaskPushNotificationConfig(
      {
        tenant: "",
        id: "",
        taskId,
        url: "http://127.0.0.1:9/hook",
        token: "t",
        authentication: undefined,
      },
      h.context,
    );
    await h.fake.query.feed(...startsBackgroundJob(stamp));
    await a.until(isState(TASK_STATE_COMPLETED));
    expect(a.describe()).not.toContain("status:WORKING:background_wait");

    await h.fake.query.feed(...backgroundJobFinished(), ...autonomousTurn("m3", "Report."));
    await vi.waitFor(async () => expect(await contextTasks(h, contextId)).toHaveLength(2));
    const wake = (await contextTasks(h, contextId)).find((t) => t.id !== taskId);
    const inherited = await h.agent.requestHandler.listTaskPushNotificationConfigs(
      { tenant: "", taskId: wake?.id ?? "", pageSize: 10, pageToken: "" },
      h.context,
    );
    expect(inherited.configs.map((c) => c.url)).toEqual(["http://127.0.0.1:9/hook"]);
  });
});
