/** The executor keeps what attributes wakes only while a session can still wake. */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { startsBackgroundJob } from "../../claude/support/sdk-messages.js";
import { isState, firstSend } from "../support/agent.js";

describe("executor retention", () => {
  it("forgets a conversation's background owners and caller when its session closes", async () => {
    const [h, a, stamp] = await firstSend("run it in the background", {
      config: { claude: { backgroundTasks: "detach" } },
    });
    await h.fake.query.feed(...startsBackgroundJob(stamp));
    await a.until(isState(TaskState.TASK_STATE_COMPLETED));
    // The task ended, its job runs on: a wake would still need to know whose work it was.
    expect(h.agent.executor.retained).toEqual({ launchedBy: 1, lastCaller: 1 });

    await h.agent.pool.closeAll();
    expect(h.agent.executor.retained).toEqual({ launchedBy: 0, lastCaller: 0 });
  });
});
