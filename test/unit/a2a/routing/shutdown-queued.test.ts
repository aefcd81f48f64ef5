/**
 * Shutdown and tasks that never started: a task queued behind another in its context, or waiting
 * for a Claude Code process (sessions.maxLive), ends with a status naming the shutdown, not an
 * internal error, and never reaches Claude.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it, vi } from "vitest";
import { describeEvent, idsOf, isState, agent, type ScriptedAgent } from "../support/agent.js";

const statusText = (h: ScriptedAgent, taskId: string) =>
  h.stored(taskId).then((t) => {
    const part = t?.status?.message?.parts[0]?.content;
    return { state: t?.status?.state, text: part?.$case === "text" ? part.value : "" };
  });

describe("shutdown with tasks that have not started", () => {
  it("a task queued in its context and one waiting for a process fail saying the server is stopping", async () => {
    const h = await agent({ config: { sessions: { maxLive: 1 } } });
    const a = h.send("first");
    await vi.waitFor(() => expect(h.fake.queries.length).toBe(1));
    await a.until((e) => describeEvent(e) === "status:WORKING");
    const { contextId } = idsOf(a);
    const b = h.send("behind it", { contextId });
    await b.until((e) => describeEvent(e) === "status:SUBMITTED:queued");
    const c = h.send("another context");
    await c.until((e) => describeEvent(e) === "status:SUBMITTED:queued");

    await h.agent.closeSessions();
    await a.until(isState(TaskState.TASK_STATE_FAILED));
    await b.until(isState(TaskState.TASK_STATE_FAILED));
    await c.until(isState(TaskState.TASK_STATE_FAILED));
    const failed = TaskState.TASK_STATE_FAILED;
    expect(await statusText(h, idsOf(a).taskId)).toEqual({
      state: failed,
      text: "Claude's run was interrupted: the server is stopping",
    });
    for (const waiting of [b, c]) {
      expect(await statusText(h, idsOf(waiting).taskId)).toEqual({
        state: failed,
        text: "This task did not start: the server is stopping.",
      });
    }
    // Neither reached Claude: no second process, no second prompt.
    expect(h.fake.queries).toHaveLength(1);
    expect(h.fake.query.sent).toHaveLength(1);
  });
});
