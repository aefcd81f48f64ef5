import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { InMemoryPushNotificationStore, ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { RetryingPushSender } from "../../../src/a2a/push-sender.js";

const context = new ServerCallContext();

const status = (taskId: string, state: TaskState): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId,
      contextId: "c",
      status: { state, message: undefined, timestamp: "" },
      metadata: undefined,
    },
  },
});

async function storeWith(url: string, token = "tok") {
  const store = new InMemoryPushNotificationStore();
  await store.save("t1", context, {
    tenant: "",
    id: "cfg",
    taskId: "t1",
    url,
    token,
    authentication: undefined,
  });
  return store;
}

function recordingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

describe("RetryingPushSender", () => {
  it("posts each event as v1.0 JSON with the token, in order, retrying a failure with backoff", async () => {
    const calls: { url: string; body: string; token: string | null }[] = [];
    let failures = 2;
    const fetch = (url: string, init: { body: string; headers: Record<string, string> }) => {
      calls.push({
        url,
        body: init.body,
        token: init.headers["X-A2A-Notification-Token"] ?? null,
      });
      if (failures-- > 0) return Promise.resolve(new Response("no", { status: 503 }));
      return Promise.resolve(new Response("ok"));
    };
    const sleeps: number[] = [];
    const { logger } = recordingLogger();
    const sender = new RetryingPushSender(await storeWith("http://127.0.0.1:1/hook"), logger, {
      fetch: fetch as unknown as typeof globalThis.fetch,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.send(status("t1", TaskState.TASK_STATE_COMPLETED), context);
    await sender.idle("t1");
    expect(sleeps).toEqual([500, 1000]);
    const states = calls.map(
      (c) =>
        (JSON.parse(c.body) as { statusUpdate: { status: { state: string } } }).statusUpdate.status
          .state,
    );
    expect(states).toEqual([
      "TASK_STATE_WORKING",
      "TASK_STATE_WORKING",
      "TASK_STATE_WORKING",
      "TASK_STATE_COMPLETED",
    ]);
    expect(calls.every((c) => c.token === "tok")).toBe(true);
  });

  it("gives up after the last attempt, logs the webhook's origin only, and never throws", async () => {
    const { logger, lines } = recordingLogger();
    const sender = new RetryingPushSender(
      await storeWith("http://127.0.0.1:1/hook/secret-path?key=hush", "sekrit"),
      logger,
      {
        attempts: 2,
        fetch: () => Promise.reject(new Error("connection refused")),
        sleep: () => Promise.resolve(),
      },
    );
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.idle("t1");
    const log = lines.join("");
    expect(log).toContain("push notification not delivered");
    expect(log).toContain("http://127.0.0.1:1");
    expect(log).not.toContain("secret-path");
    expect(log).not.toContain("sekrit");
  });

  it("sends nothing for a task without webhooks", async () => {
    let called = 0;
    const sender = new RetryingPushSender(
      new InMemoryPushNotificationStore(),
      pino({ level: "silent" }),
      {
        fetch: () => {
          called++;
          return Promise.resolve(new Response("ok"));
        },
      },
    );
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.idle("t1");
    expect(called).toBe(0);
  });
});
