import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { InMemoryPushNotificationStore, ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { RetryingPushSender } from "../../../../src/a2a/push/sender.js";
import { pushTargetPolicy, type Resolve } from "../../../../src/a2a/push/target.js";
import type {
  PostWebhook,
  WebhookAnswer,
  WebhookRequest,
} from "../../../../src/a2a/push/webhook-post.js";

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

/** No test here may ask the system's DNS anything. */
const noDns: Resolve = (host) => Promise.reject(new Error(`unexpected lookup of ${host}`));
/** Loopback webhooks (these tests' own fakes) allowed; every other check as in production. */
const loopbackAllowed = pushTargetPolicy(true, noDns);

/** A transport that records and never connects anywhere. */
function recordingPost(answers: (number | WebhookAnswer)[] = []) {
  const calls: WebhookRequest[] = [];
  const post: PostWebhook = (r) => {
    calls.push(r);
    const next = answers.shift() ?? 200;
    return Promise.resolve(typeof next === "number" ? { status: next } : next);
  };
  return { calls, post };
}

function recordingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

describe("RetryingPushSender", () => {
  it("posts each event as v1.0 JSON with the token, in order, retrying a failure with backoff", async () => {
    const { calls, post } = recordingPost([503, 503]);
    const sleeps: number[] = [];
    const { logger } = recordingLogger();
    const sender = new RetryingPushSender(await storeWith("http://127.0.0.1:1/hook"), logger, {
      targets: loopbackAllowed,
      post,
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
    expect(calls.every((c) => c.headers["X-A2A-Notification-Token"] === "tok")).toBe(true);
    expect(calls.every((c) => c.url.href === "http://127.0.0.1:1/hook")).toBe(true);
  });

  it("gives up after the last attempt, logs the webhook's origin only, and never throws", async () => {
    const { logger, lines } = recordingLogger();
    const sender = new RetryingPushSender(
      await storeWith("http://127.0.0.1:1/hook/secret-path?key=hush", "sekrit"),
      logger,
      {
        attempts: 2,
        targets: loopbackAllowed,
        post: () => Promise.reject(new Error("connection refused")),
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
        targets: loopbackAllowed,
        post: () => {
          called++;
          return Promise.resolve({ status: 200 });
        },
      },
    );
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.idle("t1");
    expect(called).toBe(0);
  });
});

describe("RetryingPushSender with server.compat.v03", () => {
  const v03Context = new ServerCallContext({ requestedVersion: "0.3" });
  const v1Context = new ServerCallContext({ requestedVersion: "1.0" });
  const config = (id: string, token: string) => ({
    tenant: "",
    id,
    taskId: "t1",
    url: `http://127.0.0.1:1/${id}`,
    token,
    authentication: undefined,
  });

  /** One webhook registered over v0.3, one over v1.0, for the same task and caller. */
  async function mixedStore() {
    const store = new InMemoryPushNotificationStore();
    await store.save("t1", v03Context, config("old", "t03"));
    await store.save("t1", v1Context, config("new", "t10"));
    return store;
  }

  const sent = async (compatV03: boolean) => {
    const { calls, post } = recordingPost();
    const sender = new RetryingPushSender(await mixedStore(), pino({ level: "silent" }), {
      targets: loopbackAllowed,
      post,
      compatV03,
    });
    // Triggered by a v1.0 request: the registration decides, not the trigger.
    await sender.send(status("t1", TaskState.TASK_STATE_COMPLETED), v1Context);
    await sender.idle("t1");
    const byToken: Record<string, { type?: string; body: Record<string, unknown> }> = {};
    for (const c of calls) {
      byToken[c.headers["X-A2A-Notification-Token"] ?? ""] = {
        type: c.headers["Content-Type"],
        body: JSON.parse(c.body) as Record<string, unknown>,
      };
    }
    return byToken;
  };

  it("sends a v0.3-registered webhook v0.3's bare event as application/json, the others v1.0", async () => {
    const by = await sent(true);
    expect(by.t03?.type).toBe("application/json");
    expect(by.t03?.body).toMatchObject({
      kind: "status-update",
      taskId: "t1",
      final: true,
      status: { state: "completed" },
    });
    expect(by.t10?.type).toBe("application/a2a+json");
    expect(by.t10?.body).toHaveProperty("statusUpdate");
  });

  it("without compat, sends every webhook v1.0, as before", async () => {
    const by = await sent(false);
    expect(by.t03?.type).toBe("application/a2a+json");
    expect(by.t10?.type).toBe("application/a2a+json");
  });
});

describe("RetryingPushSender: the webhook is checked again at every delivery", () => {
  /** A resolver that answers from a script, one answer per lookup, and records the names asked. */
  function scriptedDns(...answers: string[][]) {
    const asked: string[] = [];
    const resolve: Resolve = (host) => {
      asked.push(host);
      const next = answers.shift() ?? [];
      return Promise.resolve(
        next.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const),
      );
    };
    return { asked, resolve };
  }
  const quietSleep = { sleep: () => Promise.resolve() };

  it("refuses a private address by default: nothing is posted or retried, the refusal logged once", async () => {
    const { calls, post } = recordingPost();
    const { logger, lines } = recordingLogger();
    const sender = new RetryingPushSender(await storeWith("http://10.0.0.1/hook"), logger, {
      targets: pushTargetPolicy(false, noDns),
      post,
      ...quietSleep,
    });
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.send(status("t1", TaskState.TASK_STATE_COMPLETED), context);
    await sender.idle("t1");
    expect(calls).toEqual([]);
    const log = lines.join("");
    expect(log).toContain("10.0.0.1 is a private address");
    expect(log).not.toContain("retried");
    // Once at warn level per task and webhook, then at debug: a refused stream does not flood.
    const refusals = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((r) => r.msg === "push notification refused")
      .map((r) => r.level);
    expect(refusals).toEqual([40, 20]);
  });

  /** A sender to `url` that checks each target through `dns` (no private networks), recording. */
  async function checkedSender(url: string, dns: ReturnType<typeof scriptedDns>) {
    const { calls, post } = recordingPost();
    const { logger, lines } = recordingLogger();
    const sender = new RetryingPushSender(await storeWith(url), logger, {
      targets: pushTargetPolicy(false, dns.resolve),
      post,
      ...quietSleep,
    });
    return { calls, lines, sender };
  }

  it("connects only to the addresses it checked, and re-resolves for each delivery (DNS rebinding)", async () => {
    // 93.184.216.34 is public; the recording transport never contacts it.
    const dns = scriptedDns(["93.184.216.34"], ["10.0.0.1"]);
    const { calls, lines, sender } = await checkedSender("https://hook.invalid/x", dns);
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.send(status("t1", TaskState.TASK_STATE_COMPLETED), context);
    await sender.idle("t1");
    expect(dns.asked).toEqual(["hook.invalid", "hook.invalid"]);
    // The first answer was public: posted, pinned to that address. The second was not.
    expect(calls.map((c) => c.addresses)).toEqual([[{ address: "93.184.216.34", family: 4 }]]);
    expect(lines.join("")).toContain(
      "hook.invalid resolves to 10.0.0.1, a private address; webhooks must have public addresses",
    );
  });

  it("refuses a host when any of its addresses is private", async () => {
    const dns = scriptedDns(["93.184.216.34", "::ffff:127.0.0.1"]);
    const { calls, lines, sender } = await checkedSender("http://hook.invalid/", dns);
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.idle("t1");
    expect(calls).toEqual([]);
    expect(lines.join("")).toContain("resolves to ::ffff:127.0.0.1, a loopback address");
  });

  it("retries a host that does not resolve, then gives up", async () => {
    const { calls, post } = recordingPost();
    const { logger, lines } = recordingLogger();
    const failing: Resolve = () =>
      Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }));
    const sender = new RetryingPushSender(await storeWith("http://hook.invalid/"), logger, {
      attempts: 2,
      targets: pushTargetPolicy(false, failing),
      post,
      ...quietSleep,
    });
    await sender.send(status("t1", TaskState.TASK_STATE_WORKING), context);
    await sender.idle("t1");
    expect(calls).toEqual([]);
    const log = lines.join("");
    expect(log).toContain("push notification retried");
    expect(log).toContain("push notification not delivered");
    expect(log).toContain("could not be resolved (ENOTFOUND)");
  });
});
