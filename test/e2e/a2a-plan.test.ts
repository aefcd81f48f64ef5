/**
 * Plan, then approve (docs/control.md "Plan") against the REAL Claude Code runtime, through the
 * official A2A client with the control extension's `A2A-Extensions` header: Claude writes its
 * plan to the runtime's plan file, its `ExitPlanMode` is a `plan_approval`, and the answer
 * decides whether the plan is carried out or revised.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import { CONTROL_EXTENSION_URI } from "../../src/contract/control.js";
import {
  a2a,
  afterTool,
  describeStream,
  EVERY_TASK,
  idsOf,
  lastStatus,
  resultText,
  sendRequest,
  userMessage,
  watch,
  writes,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import {
  PLAN_CONFIG,
  PLAN_FEEDBACK,
  PLAN_PROMPT,
  PLAN_V1,
  PLAN_V2,
  planningRules,
} from "../support/harness/planning.js";

const planMessage = (mode: unknown = "plan"): Message => ({
  ...userMessage(PLAN_PROMPT),
  metadata: { permissionMode: mode },
});

const planApprovals = (events: readonly StreamResponse[]) =>
  events.flatMap((e) =>
    e.payload?.$case === "statusUpdate" &&
    e.payload.value.status?.message?.metadata?.kind === "plan_approval"
      ? [e.payload.value.status.message]
      : [],
  );

describe("control extension: plan, then approve (real runtime)", () => {
  it("ExitPlanMode arrives as plan_approval; approving carries the plan out in the workspace's mode", async () => {
    const h = await a2a({ fetchImpl: withControl, config: PLAN_CONFIG, rules: planningRules() });
    const first = watch(h.client.sendMessageStream(sendRequest(planMessage())));
    const parked = await first.done;
    const asked = lastStatus(parked);
    expect(asked.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.kind).toBe("plan_approval");
    expect(asked.text).toBe(PLAN_V1);
    expect(asked.data).toEqual({ kind: "plan_approval", plan: PLAN_V1 });
    const [message] = planApprovals(parked);
    expect(message?.parts[0]?.mediaType).toBe("text/markdown");
    // Planning changed nothing: the runtime ran in plan mode.
    await expect(access(join(h.bench.sandbox.cwd, "hello.txt"))).rejects.toThrow();
    expect(h.frames).toContainEqual(expect.objectContaining({ permissionMode: "plan" }));

    const answer = h.watch("yes", idsOf(parked));
    const shape = describeStream(await answer.done);
    expect(shape).toContain("status:working:resumed");
    expect(shape.at(-1)).toBe("status:completed");
    expect(resultText(answer.items)).toBe("Wrote hello.txt as planned.");
    expect(await readFile(join(h.bench.sandbox.cwd, "hello.txt"), "utf8")).toBe("hi\n");
    // The Write ran without a permission prompt: the workspace's acceptEdits, not plan or default.
    expect(h.permissionRequests.map((r) => r.toolName)).toEqual(["ExitPlanMode"]);
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual([
      "plan",
      "exit plan mode",
      "carry out",
      "done",
    ]);

    // The conversation's next task, which asks for no mode, runs in the workspace's again.
    h.bench.model.setRules([
      writes("Write bye", "bye.txt", "bye\n"),
      afterTool(/bye\.txt/, "Wrote bye.txt."),
    ]);
    const next = await h.send("Write bye", { contextId: idsOf(parked).contextId });
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await readFile(join(h.bench.sandbox.cwd, "bye.txt"), "utf8")).toBe("bye\n");
    expect(h.permissionRequests.map((r) => r.toolName)).toEqual(["ExitPlanMode"]);
  });

  it("rejecting with feedback brings a revised plan, still in plan mode, and writes nothing", async () => {
    const h = await a2a({ fetchImpl: withControl, config: PLAN_CONFIG, rules: planningRules() });
    const first = watch(h.client.sendMessageStream(sendRequest(planMessage())));
    const parked = await first.done;
    expect(lastStatus(parked).kind).toBe("plan_approval");

    const ids = idsOf(parked);
    const rejected = h.watch(PLAN_FEEDBACK, ids);
    const again = await rejected.done;
    const revised = lastStatus(again);
    expect(revised.kind).toBe("plan_approval");
    expect(revised.text).toBe(PLAN_V2);
    // Claude read the feedback, in the rejection the runtime handed it.
    const revise = h.bench.model.requests.find((r) => r.rule === "revise");
    expect(revise?.request.toolResults[0]?.content).toContain(PLAN_FEEDBACK);
    expect(revise?.request.toolResults[0]?.isError).toBe(true);
    await expect(access(join(h.bench.sandbox.cwd, "hello.txt"))).rejects.toThrow();

    await h.client.cancelTask({ tenant: "", id: ids.taskId, metadata: undefined });
    await expect(access(join(h.bench.sandbox.cwd, "hello.txt"))).rejects.toThrow();
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a mode outside the allowlist, wider than the workspace's, or without the header is refused before any task exists", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      config: { claude: { permissionMode: "default", allowedPermissionModes: ["plan", "auto"] } },
      rules: planningRules(),
    });
    await expect(h.client.sendMessage(sendRequest(planMessage("acceptEdits")))).rejects.toThrow(
      'metadata.permissionMode "acceptEdits" is not allowed on this server (claude.allowedPermissionModes); allowed: "plan", "auto".',
    );
    await expect(h.client.sendMessage(sendRequest(planMessage("auto")))).rejects.toThrow(
      `metadata.permissionMode "auto" is wider than this workspace's permission mode ("default")`,
    );
    const bare = await h.connect();
    await expect(bare.sendMessage(sendRequest(planMessage()))).rejects.toThrow(
      `metadata.permissionMode is part of the control extension: activate it with the request header A2A-Extensions: ${CONTROL_EXTENSION_URI}.`,
    );
    expect((await h.client.listTasks(EVERY_TASK)).tasks).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
    expect(h.spawns()).toBe(0);
  });
});
