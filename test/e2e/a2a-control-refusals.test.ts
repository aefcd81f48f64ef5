/**
 * A rewind or fork that cannot be done is the request's error, before any task exists
 * (docs/control.md "Refusals"): against the REAL Claude Code runtime and the scripted model,
 * through the official client with the control extension's header, on JSON-RPC and HTTP+JSON.
 * Each refusal carries the contract's text, and ListTasks shows no task for it; the model is
 * not called.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { CONTROL_TEXT } from "../../src/contract/control-texts.js";
import {
  a2a,
  a2aClient,
  EVERY_TASK,
  listRequest,
  messageText,
  reply,
  sendForTask,
  sendRequest,
  text,
  toolUse,
  userMessage,
  type A2AHarness,
} from "../support/harness/index.js";
import { isToolUse, withControl } from "../support/harness/control.js";

const SLOW_BASH = "while [ ! -f release ]; do sleep 0.1; done; echo built";
const TOKEN = { alice: "alice-token-0123456789", bob: "bob-token-0123456789" };
const sha256 = (t: string) => createHash("sha256").update(t).digest("hex");

const rules = [
  {
    name: "slow build",
    match: { lastUserText: /Build the release/, toolResult: false },
    reply: reply(toolUse("Bash", { command: SLOW_BASH, description: "Build" })),
  },
  { name: "built", match: { toolResult: true }, reply: reply(text("Built.")) },
  { name: "anything else", match: {}, reply: reply(text("Noted.")) },
];

const control = (metadata: Record<string, unknown>, prompt: string, contextId = ""): Message => ({
  ...userMessage(prompt, contextId === "" ? {} : { contextId }),
  metadata,
});

const completed = (task: Task) =>
  expect(task.status?.state, messageText(task.status?.message)).toBe(
    TaskState.TASK_STATE_COMPLETED,
  );

/** Every task id the caller sees, sorted (ListTasks of every context). */
async function allTaskIds(client: Client): Promise<string[]> {
  return (await client.listTasks(EVERY_TASK)).tasks.map((t) => t.id).sort();
}

/**
 * `message` is refused with exactly `reason`, on SendMessage and on SendStreamingMessage, and
 * neither leaves a task behind nor calls the model.
 */
async function expectRefused(h: A2AHarness, client: Client, message: Message, reason: string) {
  const inContext = async () =>
    message.contextId === ""
      ? []
      : (await client.listTasks(listRequest(message.contextId))).tasks.map((t) => t.id).sort();
  const [all, context] = [await allTaskIds(client), await inContext()];
  const requests = h.bench.model.requests.length;
  await expect(client.sendMessage(sendRequest(message))).rejects.toThrow(reason);
  const streamed = { ...message, messageId: `${message.messageId}-s` };
  await expect(client.sendMessageStream(sendRequest(streamed)).next()).rejects.toThrow(reason);
  expect(await allTaskIds(client)).toEqual(all);
  expect(await inContext()).toEqual(context);
  expect(h.bench.model.requests.length).toBe(requests);
}

describe("refused rewinds and forks are request errors (real runtime)", () => {
  it("no header, an unknown task, another context, a fork into its own or a used context, another caller's task, a taskId: each an error, no task stored", async () => {
    const h = await a2a({
      rules,
      config: {
        server: {
          auth: { tokens: Object.entries(TOKEN).map(([name, t]) => ({ name, sha256: sha256(t) })) },
        },
      },
    });
    const [alice, bob, bare] = await Promise.all([
      a2aClient(h.server.url, { token: TOKEN.alice, fetchImpl: withControl }),
      a2aClient(h.server.url, { token: TOKEN.bob, fetchImpl: withControl }),
      a2aClient(h.server.url, { token: TOKEN.alice }),
    ]);
    const rest = await a2aClient(h.server.url, {
      token: TOKEN.alice,
      fetchImpl: withControl,
      transport: "HTTP+JSON",
    });
    const t1 = await sendForTask(
      alice,
      userMessage("Remember the word alpha.", { contextId: "c1" }),
    );
    completed(t1);
    await sendForTask(alice, userMessage("Used.", { contextId: "used" }));

    await expectRefused(
      h,
      bare,
      control({ rewindTo: t1.id }, "x", "c1"),
      CONTROL_TEXT.needsExtension("rewindTo"),
    );
    await expectRefused(
      h,
      alice,
      control({ rewindTo: "nope" }, "x", "c1"),
      CONTROL_TEXT.unknownTask("nope"),
    );
    await expectRefused(
      h,
      rest,
      control({ rewindTo: t1.id }, "x", "c2"),
      CONTROL_TEXT.otherContext(t1.id),
    );
    await expectRefused(
      h,
      alice,
      control({ forkOf: t1.id }, "x", "c1"),
      CONTROL_TEXT.sameContext(t1.id),
    );
    await expectRefused(
      h,
      rest,
      control({ forkOf: t1.id }, "x", "used"),
      CONTROL_TEXT.contextInUse,
    );
    await expectRefused(h, bob, control({ forkOf: t1.id }, "x"), CONTROL_TEXT.unknownTask(t1.id));
    await expectRefused(
      h,
      alice,
      { ...control({ rewindTo: t1.id }, "x", "c1"), taskId: t1.id },
      CONTROL_TEXT.withTaskId("rewindTo"),
    );
    await expectRefused(h, alice, control({ dryRun: true }, "x", "c1"), CONTROL_TEXT.dryRunAlone);
    expect(await allTaskIds(bob)).toEqual([]);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("a rewind while another task of the conversation runs is an error; the running task goes on", async () => {
    const h = await a2a({
      rules,
      fetchImpl: withControl,
      config: { claude: { allowedTools: ["Bash"] } },
    });
    const t1 = await sendForTask(h.client, userMessage("Remember.", { contextId: "busy" }));
    completed(t1);
    const building = h.watch("Build the release", { contextId: "busy" });
    await building.first(isToolUse);
    await expectRefused(
      h,
      h.client,
      control({ rewindTo: t1.id }, "x", "busy"),
      CONTROL_TEXT.busy(t1.id),
    );
    await writeFile(join(h.bench.sandbox.cwd, "release"), "");
    await building.done;
    const listed = (await h.client.listTasks(listRequest("busy"))).tasks;
    expect(listed.map((t) => t.status?.state)).toEqual([
      TaskState.TASK_STATE_COMPLETED,
      TaskState.TASK_STATE_COMPLETED,
    ]);
  });

  it("a task an earlier rewind went back before can no longer be rewound to or forked from", async () => {
    const h = await a2a({ rules, fetchImpl: withControl });
    const t1 = await sendForTask(h.client, userMessage("Remember alpha.", { contextId: "rw" }));
    const t2 = await sendForTask(h.client, userMessage("Remember beta.", { contextId: "rw" }));
    const rewound = await sendForTask(
      h.client,
      control({ rewindTo: t2.id }, "Remember gamma.", "rw"),
    );
    for (const t of [t1, t2, rewound]) completed(t);
    await expectRefused(
      h,
      h.client,
      control({ rewindTo: t2.id }, "x", "rw"),
      CONTROL_TEXT.notInConversation(t2.id),
    );
    await expectRefused(
      h,
      h.client,
      control({ forkOf: t2.id }, "x", "rw-fork"),
      CONTROL_TEXT.notInConversation(t2.id),
    );
    // The task on the branch still can.
    const again = await sendForTask(
      h.client,
      control({ rewindTo: rewound.id }, "Remember delta.", "rw"),
    );
    completed(again);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
