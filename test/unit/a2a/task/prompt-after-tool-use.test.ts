/**
 * A prompt comes after the `tool_use` status of the call that asks (src/a2a/task/prompt-order.ts),
 * even when the runtime's permission request overtakes the call's assistant frame, as the SDK
 * lets it (control requests are served ahead of the message queue). A client that stops reading
 * at `input-required` (the terminal client's `send`) once missed "• Calling tool Write".
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { promptMayShow, type ToolCallsSeen } from "../../../../src/a2a/task/prompt-order.js";
import { sdk } from "../../claude/support/sdk-messages.js";
import { askPermission, idsOf, isState, firstSend } from "../support/agent.js";

const OUTSIDE = { file_path: "/etc/outside.txt", content: "x" };

const seen = (...ids: string[]): ToolCallsSeen => ({ hasSeenToolUse: (id) => ids.includes(id) });

describe("promptMayShow: a prompt waits for its call's tool_use status", () => {
  const runs = new Map([["run-1", seen("tu-seen")]]);
  it.each([
    ["its call's frame was handled", { runId: "run-1", toolUseId: "tu-seen" }, true],
    ["its call's frame was not handled yet", { runId: "run-1", toolUseId: "tu-new" }, false],
    [
      "its run is not one the task reads (ended, late)",
      { runId: "run-9", toolUseId: "tu-new" },
      true,
    ],
    ["it names no run", { toolUseId: "tu-new" }, true],
    ["it names no call", { runId: "run-1" }, true],
    ["it names an empty call id", { runId: "run-1", toolUseId: "" }, true],
    ["it is no tool's (a peer's prompt)", undefined, true],
  ])("%s → %s", (_why, call, expected) => {
    expect(promptMayShow(call, runs)).toBe(expected);
  });
});

describe("a permission request that overtakes its call's frame", () => {
  it("is shown after the call's tool_use status, and the answer's turn does not repeat it", async () => {
    const [h, run, stamp] = await firstSend("write outside the workspace");
    await h.fake.query.feed(
      sdk.init(),
      sdk.messageStart("m1", { stamp }),
      sdk.blockStart(0, { type: "tool_use", id: "tu-1", name: "Write", input: {} }, { stamp }),
      sdk.blockStop(0, { stamp }),
    );
    // The frame is written first but still queued when the request is served.
    h.fake.query.emit(sdk.toolUse("m1", "tu-1", "Write", OUTSIDE, { stamp }));
    const decision = askPermission(h.fake, "tu-1", "Write", OUTSIDE);
    await run.until(isState(TaskState.TASK_STATE_INPUT_REQUIRED), "input-required");
    await run.done;
    expect(run.describe()).toEqual([
      "task:SUBMITTED",
      "status:WORKING",
      "status:WORKING:tool_use",
      "status:INPUT_REQUIRED:permission_request",
    ]);

    const answer = h.send("yes", idsOf(run));
    expect(await decision).toMatchObject({ behavior: "allow" });
    await h.fake.query.feed(
      sdk.toolResult("tu-1", "written"),
      sdk.result({ text: "Saved.", stamp }),
    );
    await answer.until(isState(TaskState.TASK_STATE_COMPLETED), "completed");
    expect(answer.describe().filter((d) => d.endsWith(":tool_use"))).toEqual([]);
  });
});
