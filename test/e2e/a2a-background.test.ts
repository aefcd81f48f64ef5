/**
 * Background work and autonomous runs through A2A, against the REAL Claude Code runtime: what
 * Claude does after its turn ends reaches a client, in the task that started it ("wait") or in
 * a task of its own ("detach", or a wake nothing owns), and reaches webhooks.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  a2a,
  afterTool,
  describeStream,
  idsOf,
  lastStatus,
  listRequest,
  messageText,
  perTest,
  processesWithCommandLine,
  reply,
  resultText,
  says,
  text,
  userMessage,
  writes,
  type A2AHarness,
  type Rule,
} from "../support/harness/index.js";
import { statusOf, WebhookReceiver, withWebhook } from "../support/webhook.js";
import {
  backgroundBash,
  conversationKeyOf,
  mappedConversationKey,
  isWakeRequest,
  startJobRules,
} from "../support/a2a/background.js";

/** Starts `command` in the background on "Start the job", and answers the wake with `wakeText`. */
function jobRules(command: string, wakeText: string): Rule[] {
  return [
    ...startJobRules(command),
    {
      name: "wake",
      match: { lastUserText: /<task-notification>/, toolResult: false },
      reply: reply(text(wakeText)),
    },
  ];
}

/** The agent's messages of a task's history with their kind. */
function kinds(task: Task): { kind: unknown; text: string }[] {
  return task.history
    .filter((m: Message) => m.metadata?.kind !== undefined)
    .map((m) => ({ kind: m.metadata?.kind as unknown, text: messageText(m) }));
}

/** The status messages of a stream with their kind: progress is there, not in the history. */
function streamedKinds(events: readonly StreamResponse[]): { kind: unknown; text: string }[] {
  return events.flatMap((e) => {
    const message =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    return message?.metadata?.kind === undefined
      ? []
      : [{ kind: message.metadata.kind as unknown, text: messageText(message) }];
  });
}

describe("A2A background work (real runtime)", () => {
  it("wait: the blocking SendMessage returns COMPLETED with the wake's answer; progress stays out of its history", async () => {
    const h = await a2a({
      rules: jobRules("sleep 2 && echo job-done", "The job is done: job-done."),
    });
    const task = await h.send("Start the job");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The history holds the answer; the progress (background_wait, background_task) was streamed.
    expect(kinds(task)).toEqual([{ kind: "result", text: "The job is done: job-done." }]);
    // The turn's text and the wake's text are both artifacts of this one task.
    expect(task.artifacts.filter((a) => a.artifactId.startsWith("response-"))).toHaveLength(2);
    const listed = await h.client.listTasks(listRequest(task.contextId, 10));
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("detach: the task completes at once; the wake is a new task, listed, referenced and pushed to the webhook", async () => {
    const hook = perTest(await WebhookReceiver.start());
    const h = await a2a({
      // The webhook receiver is on 127.0.0.1: refused unless private networks are allowed.
      config: {
        server: { pushAllowPrivateNetworks: true },
        claude: { backgroundTasks: "detach" },
      },
      rules: jobRules("sleep 1 && echo job-done", "The job is done: job-done."),
    });
    const first = await h.client.sendMessage(
      withWebhook(userMessage("Start the job"), hook.url, "secret-token"),
    );
    if (!("status" in first)) throw new Error("expected a task");
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(messageText(first.history.at(-1))).toBe("Job started.");

    const done = await hook.waitFor((d) => {
      const s = statusOf(d);
      return s !== undefined && s.taskId !== first.id && s.state === "TASK_STATE_COMPLETED";
    });
    expect(done.headers["x-a2a-notification-token"]).toBe("secret-token");
    const wakeId = statusOf(done)?.taskId ?? "";
    const listed = await h.client.listTasks(listRequest(first.contextId, 10));
    const wake = listed.tasks.find((t) => t.id === wakeId);
    expect(wake?.metadata?.origin).toBe("autonomous");
    expect(wake?.history[0]?.referenceTaskIds).toEqual([first.id]);
    const full = await h.client.getTask({ tenant: "", id: wakeId, historyLength: undefined });
    expect(full.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(kinds(full).find((k) => k.kind === "result")?.text).toBe("The job is done: job-done.");
    // The first task's own events reached the webhook too.
    expect(hook.deliveries.some((d) => statusOf(d)?.taskId === first.id)).toBe(true);
  });

  it("waits for two background tasks: it completes after both wakes, with both answers in it", async () => {
    const h = await a2a({
      rules: [
        {
          name: "start-two",
          match: { lastUserText: "Start two jobs", toolResult: false },
          reply: reply([
            backgroundBash("sleep 1 && echo first-done", "First job"),
            backgroundBash("sleep 4 && echo second-done", "Second job"),
          ]),
        },
        afterTool(/running in background/i, "Both started.", "started"),
        says(
          /First job[\s\S]*<\/task-notification>|<summary>[^<]*First job/,
          "First job reported.",
          "wake-first",
        ),
        says(/<task-notification>/, "Second job reported.", "wake-second"),
      ],
    });
    const events = await h.stream("Start two jobs");
    expect(describeStream(events).at(-1)).toBe("status:completed");
    const seen = streamedKinds(events);
    const wait = seen.find((k) => k.kind === "background_wait");
    expect(wait?.text).toMatch(/^Waiting for background work to finish: .+\(\w+\)\.$/);
    const finished = seen.filter((k) => k.kind === "background_task");
    expect(finished).toHaveLength(2);
    for (const f of finished) expect(f.text).toMatch(/completed/);
    expect(resultText(events)).toBe("Second job reported.");
    const task = await h.client.getTask({
      tenant: "",
      id: idsOf(events).taskId,
      historyLength: undefined,
    });
    const texts = task.artifacts
      .filter((a) => a.artifactId.startsWith("response-"))
      .map((a) =>
        a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(""),
      );
    expect(texts[0]).toBe("Both started.");
    expect(texts.slice(1).sort()).toEqual(["First job reported.", "Second job reported."].sort());
    expect(kinds(task)).toEqual([{ kind: "result", text: "Second job reported." }]);
  });

  it("a wake that asks permission parks its task; the answer takes effect", async () => {
    const h = await a2a();
    const outside = `${h.bench.sandbox.root}/wake-output.txt`;
    h.bench.model.setRules([
      ...startJobRules("sleep 1 && echo job-done"),
      writes(/<task-notification>/, outside, "from the wake\n", "wake-write"),
      afterTool(/File created|wrote|written/i, "Wrote the report.", "wake-wrote"),
    ]);
    const parked = await h.stream("Start the job");
    expect(describeStream(parked)).toContain("status:working:background_wait");
    expect(lastStatus(parked)).toMatchObject({
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      kind: "permission_request",
    });
    const first = parked[0]?.payload;
    if (first?.$case !== "task") throw new Error("no task first");
    const ids = { taskId: first.value.id, contextId: first.value.contextId };
    const resumed = await h.stream("yes", ids);
    expect(describeStream(resumed).at(-1)).toBe("status:completed");
    expect(resultText(resumed)).toBe("Wrote the report.");
    expect(await readFile(outside, "utf8")).toBe("from the wake\n");
  });

  it("do-it-again + immediate hello, 10 cycles: no hang, every answer in exactly one task", async () => {
    const jobOf = (t: string) => /Job (\d+)/.exec(t)?.[1] ?? "?";
    const h = await a2a({
      rules: [
        {
          name: "start-job",
          match: { lastUserText: /Start job \d+/, toolResult: false },
          reply: (req) =>
            reply(
              backgroundBash(
                `sleep 0.5 && echo done`,
                `Job ${jobOf(req.lastUserText.replace("Start job", "Job"))}`,
              ),
            ),
        },
        afterTool(/running in background/i, "Job started.", "started"),
        {
          name: "hello",
          match: { lastUserText: /Hello \d+/ },
          reply: (req) => reply(text(`HELLO ${/Hello (\d+)/.exec(req.lastUserText)?.[1] ?? "?"}`)),
        },
        {
          name: "wake",
          match: { lastUserText: /<task-notification>/, toolResult: false },
          reply: (req) =>
            reply(text(`Wake answer for job ${jobOf(req.lastUserText)}.`), {
              chunkSize: 4,
              chunkDelayMs: 5,
            }),
        },
      ],
    });
    const contextId = crypto.randomUUID();
    const all: { job: Task; hello: Task; jobEvents: StreamResponse[] }[] = [];
    for (let i = 1; i <= 10; i++) {
      const after = h.bench.model.lastSeq;
      const job = h.stream(`Start job ${i}`, { contextId });
      // The moment the wake begins, a new message arrives in the context.
      await h.bench.model.waitForRequest(isWakeRequest, { afterSeq: after });
      const hello = await h.send(`Hello ${i}`, { contextId });
      expect(hello.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(
        kinds(hello)
          .filter((k) => k.kind === "result")
          .at(-1)?.text,
      ).toBe(`HELLO ${i}`);
      const jobEvents = await job;
      const finalJob = await waitForEnd(h, idsOf(jobEvents).taskId);
      expect(finalJob.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      all.push({ job: finalJob, hello, jobEvents });
    }
    // Every answer is in exactly one task: the hello's in its hello, a wake's in its job.
    const texts = (t: Task) => JSON.stringify(t.artifacts);
    for (const [index, { job, hello, jobEvents }] of all.entries()) {
      const i = index + 1;
      expect(texts(hello)).not.toContain("Wake answer");
      expect(texts(job)).not.toContain("HELLO");
      const others = all.filter((_, j) => j !== index).map((c) => texts(c.job) + texts(c.hello));
      expect(others.join("")).not.toContain(`Wake answer for job ${i}.`);
      // The wake either answered in its job's task, or the hello interrupted it, and it says so.
      const answered = texts(job).includes(`Wake answer for job ${i}.`);
      const interrupted = streamedKinds(jobEvents).some((k) => k.kind === "wake_interrupted");
      expect(answered || interrupted).toBe(true);
    }
    const listed = await h.client.listTasks(listRequest(contextId, 10));
    expect(listed.tasks.every((t) => t.status?.state === TaskState.TASK_STATE_COMPLETED)).toBe(
      true,
    );
    expect(h.spawns()).toBe(1);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 180_000);

  it("cancel of a waiting task stops its background process", async () => {
    const h = await a2a();
    // A read-only command (no permission prompt) whose command line is unique to this test.
    const marker = `600.${process.pid}${Date.now() % 100_000}`;
    h.bench.model.setRules(jobRules(`sleep ${marker}`, "unused"));
    const stream = h.watch("Start the job");
    const events = stream.items;
    await expect
      .poll(() => describeStream(events), { timeout: 30_000 })
      .toContain("status:working:background_wait");
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 10_000 }).not.toEqual([]);
    const first = events[0]?.payload;
    if (first?.$case !== "task") throw new Error("no task first");
    const canceled = await h.client.cancelTask({
      tenant: "",
      id: first.value.id,
      metadata: undefined,
    });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await stream.done;
    expect(describeStream(events).at(-1)).toBe("status:canceled");
    // The background process is gone, and the runtime says it stopped it.
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).toEqual([]);
    // Its session (found by its pool key, so the check cannot pass on a missing session) has no
    // background work left.
    const cwd = h.bench.sandbox.cwd;
    const contextId = first.value.contextId;
    await expect.poll(() => conversationKeyOf(cwd, contextId), { timeout: 20_000 }).toBeDefined();
    const key = await mappedConversationKey(cwd, contextId);
    await expect
      .poll(() => h.server.pool.peek(key)?.backgroundTasks().length ?? 0, { timeout: 20_000 })
      .toBe(0);
  });
});

/** The task once it has ended (a blocking send may return before its background work is done). */
async function waitForEnd(harness: A2AHarness, taskId: string): Promise<Task> {
  const terminal = [
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
  ];
  let task: Task | undefined;
  await expect
    .poll(
      async () => {
        task = await harness.client.getTask({ tenant: "", id: taskId, historyLength: undefined });
        return terminal.includes(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  if (task === undefined) throw new Error("no task");
  return task;
}
