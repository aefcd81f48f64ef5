/**
 * What a run asks or does reaches the task that owns the run, by run id: several prompts of one
 * run are asked in turn, and a wake's prompt or file never reaches the task starting beside it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it, vi } from "vitest";
import { DENIAL, TEXT } from "../../../../src/contract/texts.js";
import { reply, sdk } from "../../claude/support/sdk-messages.js";
import {
  askPermission,
  describeEvent,
  fileWritten,
  idsOf,
  isState,
  agent,
  sentStamp,
  type ScriptedAgent,
  type StreamReader,
  firstSend,
} from "../support/agent.js";

const { TASK_STATE_WORKING, TASK_STATE_INPUT_REQUIRED, TASK_STATE_COMPLETED } = TaskState;

/** The input-required prompt's data part. */
function promptData(reader: StreamReader): Record<string, unknown> | undefined {
  for (const e of reader.events) {
    const p = e.payload;
    if (p?.$case !== "statusUpdate") continue;
    if (p.value.status?.state !== TASK_STATE_INPUT_REQUIRED) continue;
    const data = p.value.status.message?.parts.find((part) => part.content?.$case === "data");
    return data?.content?.$case === "data"
      ? (data.content.value as Record<string, unknown>)
      : undefined;
  }
  return undefined;
}

const A = { file_path: "/outside/a.txt", content: "a" };
const B = { file_path: "/outside/b.txt", content: "b" };

/** A run whose two parallel subagents each ask to write outside the workspace. */
async function twoPrompts(options?: Parameters<typeof firstSend>[1]) {
  const [agent, first, stamp] = await firstSend("two subagents, one file each", options);
  await agent.fake.query.feed(
    sdk.init(),
    sdk.assistant(
      "m1",
      [
        { type: "tool_use", id: "tu-a", name: "Agent", input: { prompt: "a" } },
        { type: "tool_use", id: "tu-b", name: "Agent", input: { prompt: "b" } },
      ],
      { stamp },
    ),
    sdk.toolUse("ms-a", "tu-wa", "Write", A, { parent: "tu-a" }),
    sdk.toolUse("ms-b", "tu-wb", "Write", B, { parent: "tu-b" }),
  );
  // The runtime asks both at once: neither waits for the other.
  const decisionA = askPermission(agent.fake, "tu-wa", "Write", A);
  const decisionB = askPermission(agent.fake, "tu-wb", "Write", B);
  await first.until(isState(TASK_STATE_INPUT_REQUIRED));
  await first.done;
  return { h: agent, first, stamp, decisionA, decisionB, ...idsOf(first) };
}

/** Answers yes to the prompt shown; the answer's stream shows the `next` prompt in its place. */
async function yesShowsNext(
  h: ScriptedAgent,
  ids: { taskId: string; contextId: string },
  next: { toolName: string; input: unknown },
): Promise<void> {
  const answer = h.send("yes", ids);
  await answer.done;
  expect(answer.describe()).toEqual([
    "task:INPUT_REQUIRED",
    "status:INPUT_REQUIRED:permission_request",
  ]);
  expect(promptData(answer)).toMatchObject(next);
}

describe("several pending prompts in one task", () => {
  it("asks them one at a time in arrival order; each answer takes effect", async () => {
    const { h, first, stamp, decisionA, decisionB, taskId, contextId } = await twoPrompts();
    expect(promptData(first)).toMatchObject({ toolName: "Write", input: A });

    // The next prompt takes the answered one's place: the task never shows WORKING in between.
    await yesShowsNext(h, { taskId, contextId }, { toolName: "Write", input: B });
    expect(await decisionA).toEqual({ behavior: "allow", updatedInput: A });

    const answerB = h.send("no, not there", { taskId, contextId });
    await answerB.until((e) => describeEvent(e) === "status:WORKING:resumed");
    expect(await decisionB).toMatchObject({ behavior: "deny" });
    expect(JSON.stringify(await decisionB)).toContain("no, not there");

    await h.fake.query.feed(sdk.result({ text: "one written, one refused", stamp }));
    await answerB.until(isState(TASK_STATE_COMPLETED));
  });

  it("cancel settles every pending prompt, shown or not", async () => {
    const { h, decisionA, decisionB, taskId } = await twoPrompts();
    await h.cancel(taskId);
    expect(await decisionA).toMatchObject({ behavior: "deny", interrupt: true });
    expect(await decisionB).toMatchObject({ behavior: "deny", interrupt: true });
  });

  it("a prompt the runtime withdraws is settled, and the next one shown", async () => {
    const [h, first, stamp] = await firstSend("two subagents");
    await h.fake.query.feed(
      sdk.init(),
      sdk.toolUse("m1", "tu-wa", "Write", A, { stamp }),
      sdk.toolUse("m2", "tu-wb", "Write", B, { stamp }),
    );
    const abort = new AbortController();
    const decisionA = askPermission(h.fake, "tu-wa", "Write", A, abort.signal);
    const decisionB = askPermission(h.fake, "tu-wb", "Write", B);
    await first.until(isState(TASK_STATE_INPUT_REQUIRED));
    const { taskId } = idsOf(first);
    const follower = h.agent.requestHandler.resubscribe({ tenant: "", id: taskId }, h.context);
    const seen: string[] = [];
    const following = (async () => {
      for await (const e of follower) {
        seen.push(describeEvent(e));
        if (seen.length === 2) return;
      }
    })();
    abort.abort();
    expect(await decisionA).toMatchObject({ behavior: "deny" });
    await following;
    expect(seen).toEqual(["task:INPUT_REQUIRED", "status:INPUT_REQUIRED:permission_request"]);
    void decisionB;
  });

  it("progress of a call made while a prompt is shown waits for the answer that resumes the task", async () => {
    const [h, first, stamp] = await firstSend("read two notes");
    const RA = { file_path: "/outside/a.txt" };
    const RB = { file_path: "/outside/b.txt" };
    await h.fake.query.feed(sdk.init(), sdk.toolUse("m1", "tu-ra", "Read", RA, { stamp }));
    const decisionA = askPermission(h.fake, "tu-ra", "Read", RA);
    await first.done;
    expect(first.describe().at(-1)).toBe("status:INPUT_REQUIRED:permission_request");
    const { taskId, contextId } = idsOf(first);
    const follower = h.agent.requestHandler.resubscribe({ tenant: "", id: taskId }, h.context);
    const seen: string[] = [];
    const following = (async () => {
      for await (const e of follower) seen.push(describeEvent(e));
    })();
    // The same message's second call, while the first prompt is shown: its `tool_use` status
    // must not replace the prompt.
    await h.fake.query.feed(sdk.toolUse("m1", "tu-rb", "Read", RB, { stamp }));
    const decisionB = askPermission(h.fake, "tu-rb", "Read", RB);

    await yesShowsNext(h, { taskId, contextId }, { toolName: "Read", input: RB });
    expect(await decisionA).toEqual({ behavior: "allow", updatedInput: RA });
    await following;
    expect(seen.filter((e) => !e.startsWith("task:"))).toEqual([
      "status:INPUT_REQUIRED:permission_request",
    ]);
    const stored = await h.stored(taskId);
    expect(stored?.status?.state).toBe(TASK_STATE_INPUT_REQUIRED);
    expect(stored?.status?.message?.metadata?.kind).toBe("permission_request");

    // The last answer resumes it: `resumed`, then the held `tool_use`, stamped after it.
    const answerB = h.send("yes", { taskId, contextId });
    const held = await answerB.until((e) => describeEvent(e) === "status:WORKING:tool_use");
    expect(answerB.describe().slice(0, 3)).toEqual([
      "task:INPUT_REQUIRED",
      "status:WORKING:resumed",
      "status:WORKING:tool_use",
    ]);
    const update = held.payload?.$case === "statusUpdate" ? held.payload.value : undefined;
    expect(update?.status?.message?.metadata).toMatchObject({ toolUseId: "tu-rb" });
    const resumed = answerB.events[1]?.payload;
    const resumedAt = resumed?.$case === "statusUpdate" ? resumed.value.status?.timestamp : "";
    expect(Date.parse(update?.status?.timestamp ?? "")).toBeGreaterThanOrEqual(
      Date.parse(resumedAt ?? ""),
    );
    expect(await decisionB).toEqual({ behavior: "allow", updatedInput: RB });
    await h.fake.query.feed(sdk.result({ text: "both read", stamp }));
    await answerB.until(isState(TASK_STATE_COMPLETED));
  });
});

describe("a wake's prompt and file while a new task starts in the context", () => {
  it("never reach the new task: they belong to the wake's own (autonomous) task", async () => {
    const h = await agent();
    // Task A creates the session and completes.
    const a = h.send("start the background job");
    const stampA = await sentStamp(h, 0);
    await h.fake.query.feed(...reply(stampA, "m1", "started"));
    await a.until(isState(TASK_STATE_COMPLETED));
    const { contextId, taskId: taskA } = idsOf(a);

    // The runtime wakes by itself (no stamp): an autonomous run that removes build/ and writes.
    await h.fake.query.feed(
      sdk.init(),
      sdk.messageStart("w1"),
      sdk.toolUse("w1", "tu-rm", "Bash", { command: "rm -rf build" }),
      sdk.toolUse("w2", "tu-write", "Write", { file_path: "wake.txt" }),
    );
    // Task B arrives: the session interrupts the wake and waits for its teardown.
    const b = h.send("hello", { contextId });
    await vi.waitFor(() => expect(h.fake.query.interrupts).toBe(1));
    const { taskId: taskB } = idsOf(b);
    expect(h.agent.executor.phaseOf(taskB)?.name).toBe("starting");

    // Before the teardown, the wake's permission prompt and file change come in.
    const wakeDecision = askPermission(h.fake, "tu-rm", "Bash", { command: "rm -rf build" });
    await writeFile(join(h.dir, "wake.txt"), "from the wake");
    await fileWritten(h.fake, "tu-write", join(h.dir, "wake.txt"));
    const listed = await h.agent.requestHandler.listTasks(
      {
        tenant: "",
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 10,
        pageToken: "",
        historyLength: 0,
        statusTimestampAfter: undefined,
      },
      h.context,
    );
    const wakeTask = listed.tasks.find((t) => t.id !== taskA && t.id !== taskB);
    expect(wakeTask?.metadata?.origin).toBe("autonomous");
    await vi.waitFor(() =>
      expect(h.agent.executor.phaseOf(wakeTask?.id ?? "")?.name).toBe("parked"),
    );

    await h.fake.query.feed(sdk.abortedResult());
    // The new message interrupted the wake: its task ends, its prompt is settled.
    expect(await wakeDecision).toMatchObject({ behavior: "deny" });
    const stampB = await sentStamp(h, 1);
    await b.until(isState(TASK_STATE_WORKING));
    await h.fake.query.feed(...reply(stampB, "m3", "hello back"));
    await b.until(isState(TASK_STATE_COMPLETED));
    expect(b.describe().filter((d) => d.includes("INPUT_REQUIRED") || d.includes("file:"))).toEqual(
      [],
    );
    expect((await h.stored(taskB))?.artifacts.map((x) => x.artifactId)).toEqual([
      expect.stringMatching(/^response-/),
    ]);
    const wake = await h.stored(wakeTask?.id ?? "");
    expect(wake?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(wake?.status?.message?.parts[0]?.content?.value).toBe(TEXT.wakeInterrupted);
    expect(wake?.artifacts.map((x) => x.artifactId)).toContain("file:wake.txt");
  });

  it("a prompt of a run whose task has ended is denied, saying no client can answer it", async () => {
    const [h, a, stamp] = await firstSend("start a background helper", {
      config: { claude: { backgroundTasks: "detach" } },
    });
    await h.fake.query.feed(
      sdk.init(),
      sdk.toolUse("m1", "tu-agent", "Agent", { prompt: "help" }, { stamp }),
      sdk.result({ text: "helper started", stamp }),
    );
    await a.until(isState(TASK_STATE_COMPLETED));
    // The helper (a subagent of the ended run) asks afterwards.
    await h.fake.query.feed(sdk.toolUse("ms", "tu-late", "Write", A, { parent: "tu-agent" }));
    expect(await askPermission(h.fake, "tu-late", "Write", A)).toEqual({
      behavior: "deny",
      message: DENIAL.unowned,
    });
  });
});
