/**
 * Push-notification webhooks a client names are checked before they are stored: http(s) only, no
 * credentials in the URL, and no loopback or private address unless
 * `server.pushAllowPrivateNetworks` is true. Through the official client over real HTTP; every
 * refused URL is refused at config time, so nothing is ever sent to it (10.0.0.1 included: the
 * error is the proof, no connection is attempted).
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { a2a, listRequest, perTest, says, userMessage } from "../support/harness/index.js";
import { pushConfig, statusOf, WebhookReceiver, withWebhook } from "../support/webhook.js";

const rules = [says("Hello", "Hi.", "hello")];

const PRIVATE_HINT = /webhooks must have public addresses unless server\.pushAllowPrivateNetworks/;

describe("push-notification webhook targets", () => {
  it("refuses loopback, private and credential-carrying URLs by default, storing nothing", async () => {
    const hook = perTest(await WebhookReceiver.start());
    const h = await a2a({ rules });
    const task = await h.send("Hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const create = (url: string) =>
      h.client.createTaskPushNotificationConfig(pushConfig(url, "tok", task.id));

    await expect(create(hook.url)).rejects.toThrow(
      /Push notification config refused: 127\.0\.0\.1 is a loopback address/,
    );
    await expect(create(hook.url)).rejects.toThrow(PRIVATE_HINT);
    // Invalid params (-32602): the SDK client rebuilds it as RequestMalformedError.
    await expect(create("http://10.0.0.1/hook")).rejects.toBeInstanceOf(RequestMalformedError);
    await expect(create("http://10.0.0.1/hook")).rejects.toThrow(
      /Push notification config refused: 10\.0\.0\.1 is a private address/,
    );
    await expect(create("http://[::ffff:169.254.169.254]/latest")).rejects.toThrow(
      /is a link-local address/,
    );
    const port = new URL(hook.url).port;
    await expect(create(`https://user:pw@127.0.0.1:${port}/hook`)).rejects.toThrow(
      /must not carry credentials/,
    );
    await expect(create("ftp://127.0.0.1/hook")).rejects.toThrow(/must be http or https/);

    // The REST binding gives the same refusal as a 400.
    const rest = await fetch(`${h.server.url}/a2a/rest/tasks/${task.id}/pushNotificationConfigs`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ taskId: task.id, url: "http://192.168.1.1/hook" }),
    });
    expect(rest.status).toBe(400);
    expect(await rest.text()).toContain("192.168.1.1 is a private address");

    // Nothing was stored for the task.
    const stored = await h.client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: task.id,
      pageSize: 10,
      pageToken: "",
    });
    expect(stored.configs).toEqual([]);

    // A message carrying a refused webhook is refused as a whole: no task, no model call.
    const modelCalls = h.bench.model.requests.length;
    await expect(
      h.client.sendMessage(
        withWebhook(userMessage("Hello", { contextId: task.contextId }), hook.url, "tok"),
      ),
    ).rejects.toThrow(/Push notification config refused: 127\.0\.0\.1 is a loopback address/);
    const listed = await h.client.listTasks(listRequest(task.contextId));
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(h.bench.model.requests.length).toBe(modelCalls);

    expect(hook.deliveries).toEqual([]);
  });

  it("accepts a loopback webhook with server.pushAllowPrivateNetworks, and delivers to it", async () => {
    const hook = perTest(await WebhookReceiver.start());
    const h = await a2a({ rules, config: { server: { pushAllowPrivateNetworks: true } } });
    const first = await h.send("Hello");
    const created = await h.client.createTaskPushNotificationConfig(
      pushConfig(hook.url, "tok", first.id),
    );
    expect(created.url).toBe(hook.url);
    // Credentials in the URL stay refused: the switch is about addresses only.
    await expect(
      h.client.createTaskPushNotificationConfig(
        pushConfig(hook.url.replace("http://", "http://user:pw@"), "tok", first.id),
      ),
    ).rejects.toThrow(/must not carry credentials/);

    const second = await h.client.sendMessage(
      withWebhook(userMessage("Hello", { contextId: first.contextId }), hook.url, "tok"),
    );
    if (!("status" in second)) throw new Error("expected a task");
    const done = await hook.waitFor((d) => {
      const s = statusOf(d);
      return s?.taskId === second.id && s.state === "TASK_STATE_COMPLETED";
    });
    expect(done.headers["x-a2a-notification-token"]).toBe("tok");
  });
});
