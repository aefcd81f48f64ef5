/**
 * The control extension after a restart (docs/control.md): a conversation whose Claude Code
 * process is resumed by a new server can still be planned and steered, against the REAL runtime
 * through the official client with the extension's header.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message } from "@a2a-js/sdk";
import {
  a2a,
  describeStream,
  idsOf,
  lastStatus,
  resultText,
  says,
  sendRequest,
  userMessage,
  watch,
} from "../support/harness/index.js";
import {
  bodyHas,
  releaseBash,
  slowBashRules,
  startBuild,
  steer,
  STEERED_ANSWER,
  untilQueued,
  withControl,
} from "../support/harness/control.js";
import { planningRules } from "../support/harness/planning.js";

const PLAN = "# Plan\n\n1. Write hello.txt.\n";

describe("control extension after a restart (real runtime)", () => {
  it("a resumed conversation is planned in plan mode, then steered, by the new server", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      config: { claude: { allowedTools: ["Bash"], allowedPermissionModes: ["plan"] } },
      rules: [
        says("Remember the word kiwi", "Kiwi.", "hi"),
        ...planningRules({ plan: PLAN }),
        ...slowBashRules(),
      ],
    });
    const first = await h.send("Remember the word kiwi");
    const { contextId } = first;
    await h.restart();

    // The new server resumes the conversation in plan mode: its process starts with it.
    const plan: Message = {
      ...userMessage("Make hello", { contextId }),
      metadata: { permissionMode: "plan" },
    };
    const planned = await watch(h.client.sendMessageStream(sendRequest(plan))).done;
    expect(lastStatus(planned)).toMatchObject({ kind: "plan_approval", text: PLAN });
    await expect(access(join(h.bench.sandbox.cwd, "hello.txt"))).rejects.toThrow();
    // The model's request held the conversation from before the restart.
    const planRequest = h.bench.model.requests.find((r) => r.rule === "plan");
    expect(bodyHas("Remember the word kiwi")(planRequest?.request ?? { body: "" })).toBe(true);
    const approved = await h.watch("yes", idsOf(planned)).done;
    expect(describeStream(approved).at(-1)).toBe("status:completed");
    expect(await readFile(join(h.bench.sandbox.cwd, "hello.txt"), "utf8")).toBe("hi\n");

    // Then a task of the same conversation is steered while its slow command runs.
    const { stream } = await startBuild(h, { contextId });
    await steer(h.client, idsOf(stream.items));
    await untilQueued(h);
    await releaseBash(h);
    const shape = describeStream(await stream.done);
    expect(shape).toContain("status:working:steered");
    expect(resultText(stream.items)).toBe(STEERED_ANSWER);
    const stored = await h.client.getTask({
      tenant: "",
      id: idsOf(stream.items).taskId,
      historyLength: 0,
    });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(h.spawns()).toBe(2);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
