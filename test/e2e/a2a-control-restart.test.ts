/**
 * The control extension after a restart (docs/control.md): a conversation whose Claude Code
 * process is resumed by a new server can still be planned and steered, against the REAL runtime
 * through the official client with the extension's header.
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import {
  a2a,
  describeStream,
  idsOf,
  lastStatus,
  reply,
  resultText,
  says,
  sendRequest,
  text,
  toolUse,
  userMessage,
  watch,
} from "../support/harness/index.js";
import { bodyHas, withControl } from "../support/harness/control.js";

const STEER = "Also update the changelog.";
const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done; echo bash-done > finished";
const PLAN = "# Plan\n\n1. Write hello.txt.\n";
const isToolUse = (e: StreamResponse) =>
  e.payload?.$case === "statusUpdate" &&
  e.payload.value.status?.message?.metadata?.kind === "tool_use";
const isQueuedCommand = (frame: unknown) => {
  const f = frame as { type?: string; state?: string };
  return f.type === "command_lifecycle" && f.state === "queued";
};

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("control extension after a restart (real runtime)", () => {
  it("a resumed conversation is planned in plan mode, then steered, by the new server", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      config: { claude: { allowedTools: ["Bash"], allowedPermissionModes: ["plan"] } },
      rules: [
        says("Remember the word kiwi", "Kiwi.", "hi"),
        {
          name: "carry out",
          match: { lastUserText: "User has approved your plan" },
          reply: reply(toolUse("Write", { file_path: "hello.txt", content: "hi\n" })),
        },
        {
          name: "written",
          match: { toolResult: /File created successfully at: hello\.txt/ },
          reply: reply(text("Wrote hello.txt.")),
        },
        {
          name: "exit",
          match: { toolResult: /plans\/.*\.md/ },
          reply: reply(toolUse("ExitPlanMode", {})),
        },
        {
          name: "plan",
          match: { lastUserText: "Make hello", toolResult: false },
          reply: (req) => {
            const file = /create your plan at (\S+?\.md)/.exec(JSON.stringify(req.body))?.[1] ?? "";
            return reply(toolUse("Write", { file_path: file, content: PLAN }));
          },
        },
        {
          name: "steered answer",
          match: { when: bodyHas(STEER) },
          reply: reply(text("Built it, and updated the changelog as you asked.")),
        },
        {
          name: "build",
          match: { lastUserText: "Build the release", toolResult: false },
          reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
        },
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
    const stream = h.watch("Build the release", { contextId });
    await stream.first(isToolUse);
    await h.client.sendMessage(sendRequest(userMessage(STEER, idsOf(stream.items))));
    await waitFor(() => h.frames.some(isQueuedCommand));
    await writeFile(join(h.bench.sandbox.cwd, "release"), "");
    const shape = describeStream(await stream.done);
    expect(shape).toContain("status:working:steered");
    expect(resultText(stream.items)).toBe("Built it, and updated the changelog as you asked.");
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
