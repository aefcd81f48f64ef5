/**
 * Webhooks apart: each webhook of a task has its own queue (a stuck one delays only itself),
 * order is kept per webhook, a 4xx answer is not retried, Retry-After is honoured, and every
 * drop is logged once with the webhook's id and status and counted.
 */
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { InMemoryPushNotificationStore, ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { DropReason } from "../../../../src/a2a/push/delivery-decision.js";
import { RetryingPushSender } from "../../../../src/a2a/push/sender.js";
import { pushTargetPolicy, type Resolve } from "../../../../src/a2a/push/target.js";
import type { WebhookAnswer, WebhookRequest } from "../../../../src/a2a/push/webhook-post.js";

const context = new ServerCallContext();
const noDns: Resolve = (host) => Promise.reject(new Error(`unexpected lookup of ${host}`));
const targets = pushTargetPolicy(true, noDns);

const event = (state: TaskState, n: number): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: "t1",
      contextId: "c",
      status: { state, message: undefined, timestamp: "" },
      metadata: { n },
    },
  },
});
const numberOf = (r: WebhookRequest): number =>
  (JSON.parse(r.body) as { statusUpdate: { metadata: { n: number } } }).statusUpdate.metadata.n;

async function storeOf(...hooks: string[]) {
  const store = new InMemoryPushNotificationStore();
  for (const id of hooks) {
    await store.save("t1", context, {
      tenant: "",
      id,
      taskId: "t1",
      url: `http://127.0.0.1:1/${id}`,
      token: "",
      authentication: undefined,
    });
  }
  return store;
}

/** A webhook transport whose answers a test scripts per path; every call recorded. */
function scripted(answers: Record<string, (WebhookAnswer | Promise<WebhookAnswer>)[]>) {
  const calls: { hook: string; n: number }[] = [];
  const post = (r: WebhookRequest): Promise<WebhookAnswer> => {
    const hook = r.url.pathname.slice(1);
    calls.push({ hook, n: numberOf(r) });
    return Promise.resolve(answers[hook]?.shift() ?? { status: 200 });
  };
  return { calls, post };
}

function recording() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: "info" },
    {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    },
  );
  return { logger, lines };
}

describe("RetryingPushSender: webhooks apart", () => {
  it("delivers every event to a good webhook, in order, while another is stuck on its first", async () => {
    let unstick = (_a: WebhookAnswer) => {};
    const stuck = new Promise<WebhookAnswer>((resolve) => (unstick = resolve));
    const { calls, post } = scripted({ slow: [stuck] });
    const sender = new RetryingPushSender(
      await storeOf("slow", "good"),
      pino({ level: "silent" }),
      {
        targets,
        post,
      },
    );
    for (let n = 1; n <= 3; n++) await sender.send(event(TaskState.TASK_STATE_WORKING, n), context);
    await sender.send(event(TaskState.TASK_STATE_COMPLETED, 4), context);
    // Every event reached the good webhook although the slow one has not answered its first.
    await until(() => calls.filter((c) => c.hook === "good").length === 4);
    expect(calls.filter((c) => c.hook === "good").map((c) => c.n)).toEqual([1, 2, 3, 4]);
    expect(calls.filter((c) => c.hook === "slow").map((c) => c.n)).toEqual([1]);
    unstick({ status: 200 });
    await sender.idle("t1");
    expect(calls.filter((c) => c.hook === "slow").map((c) => c.n)).toEqual([1, 2, 3, 4]);
  });

  it("does not retry a 400: each event once, each drop logged once with the webhook's id and status, and counted", async () => {
    const { calls, post } = scripted({ refusing: [{ status: 400 }, { status: 400 }] });
    const { logger, lines } = recording();
    const drops: DropReason[] = [];
    const sleeps: number[] = [];
    const sender = new RetryingPushSender(await storeOf("refusing", "good"), logger, {
      targets,
      post,
      onDrop: (reason) => drops.push(reason),
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    await sender.send(event(TaskState.TASK_STATE_WORKING, 1), context);
    await sender.send(event(TaskState.TASK_STATE_COMPLETED, 2), context);
    await sender.idle("t1");
    expect(calls.filter((c) => c.hook === "refusing").map((c) => c.n)).toEqual([1, 2]);
    expect(calls.filter((c) => c.hook === "good").map((c) => c.n)).toEqual([1, 2]);
    expect(sleeps).toEqual([]);
    expect(drops).toEqual(["rejected", "rejected"]);
    const dropped = lines.filter((l) => l.msg === "push notification not delivered");
    expect(dropped).toHaveLength(2);
    expect(dropped[0]).toMatchObject({
      taskId: "t1",
      webhookId: "refusing",
      status: 400,
      reason: "rejected",
      attempts: 1,
    });
    expect(lines.some((l) => l.msg === "push notification retried")).toBe(false);
  });

  it("waits a 429's Retry-After, at most maxRetryAfterMs, and keeps the order behind the retry", async () => {
    const { calls, post } = scripted({
      busy: [
        { status: 429, retryAfter: "1" },
        { status: 503, retryAfter: "3600" },
      ],
    });
    const sleeps: number[] = [];
    const sender = new RetryingPushSender(await storeOf("busy"), pino({ level: "silent" }), {
      targets,
      post,
      maxRetryAfterMs: 60_000,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    await sender.send(event(TaskState.TASK_STATE_WORKING, 1), context);
    await sender.send(event(TaskState.TASK_STATE_COMPLETED, 2), context);
    await sender.idle("t1");
    expect(sleeps).toEqual([1000, 60_000]);
    expect(calls.map((c) => c.n)).toEqual([1, 1, 1, 2]);
  });

  it("counts a webhook given up after its last attempt as exhausted", async () => {
    const { post } = scripted({ down: [{ status: 500 }, { status: 502 }] });
    const drops: DropReason[] = [];
    const sender = new RetryingPushSender(await storeOf("down"), pino({ level: "silent" }), {
      targets,
      post,
      attempts: 2,
      onDrop: (reason) => drops.push(reason),
      sleep: () => Promise.resolve(),
    });
    await sender.send(event(TaskState.TASK_STATE_COMPLETED, 1), context);
    await sender.idle("t1");
    expect(drops).toEqual(["exhausted"]);
  });
});

/** Until `pred` holds, checking after each macrotask (bounded by the test's timeout). */
async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await new Promise((resolve) => setImmediate(resolve));
}
