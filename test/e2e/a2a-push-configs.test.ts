/**
 * Push configs as clients read them: credentials are write-only on every binding (JSON-RPC,
 * HTTP+JSON, gRPC), yet the webhook receives them; a REST delete answers `200 {}`. The official
 * client over real HTTP and gRPC, and raw HTTP where the client would hide the wire.
 */
import { describe, expect, it } from "vitest";
import { TaskState, type TaskPushNotificationConfig } from "@a2a-js/sdk";
import { a2a, perTest, postRpc, says, userMessage, V1_JSON } from "../support/harness/index.js";
import { pushConfig, statusOf, WebhookReceiver, withWebhook } from "../support/webhook.js";

const TIMEOUT = 120_000;
const TOKEN = "tok-write-only";
const BEARER = "bearer-write-only";
const secrets = new RegExp(`${TOKEN}|${BEARER}`);

const withCredentials = (url: string): TaskPushNotificationConfig => ({
  ...pushConfig(url, TOKEN),
  authentication: { scheme: "Bearer", credentials: BEARER },
});

describe("push configs", () => {
  it(
    "never read back a token or Bearer credential, on any binding, while the webhook gets both",
    async () => {
      const hook = perTest(await WebhookReceiver.start());
      const h = await a2a({
        rules: [says("Hello", "Hi.", "hello")],
        grpc: true,
        config: { server: { pushAllowPrivateNetworks: true } },
      });
      const sent = withWebhook(userMessage("Hello"), hook.url, TOKEN);
      const result = await h.client.sendMessage({
        ...sent,
        configuration: sent.configuration && {
          ...sent.configuration,
          taskPushNotificationConfig: withCredentials(hook.url),
        },
      });
      if (!("status" in result)) throw new Error("expected a task");
      expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const done = await hook.waitFor((d) => statusOf(d)?.state === "TASK_STATE_COMPLETED");
      expect(done.headers.authorization).toBe(`Bearer ${BEARER}`);
      expect(done.headers["x-a2a-notification-token"]).toBe(TOKEN);

      for (const transport of ["JSONRPC", "HTTP+JSON", "GRPC"] as const) {
        const client = await h.connect({ transport });
        const listed = await client.listTaskPushNotificationConfig({
          tenant: "",
          taskId: result.id,
          pageSize: 10,
          pageToken: "",
        });
        expect(listed.configs, transport).toHaveLength(1);
        const [config] = listed.configs;
        if (config === undefined) throw new Error("no config");
        expect(config, transport).toMatchObject({ url: hook.url, token: "" });
        expect(config.authentication, transport).toEqual({ scheme: "Bearer", credentials: "" });
        const got = await client.getTaskPushNotificationConfig({
          tenant: "",
          taskId: result.id,
          id: config.id,
        });
        expect(got, transport).toMatchObject({ id: config.id, url: hook.url, token: "" });
        expect(got.authentication?.credentials, transport).toBe("");
      }

      // On the wire too (a client's decoder would fill a missing field with "" either way).
      const rpcList = await postRpc(h.server.url, "ListTaskPushNotificationConfigs", {
        taskId: result.id,
      });
      const rpcText = await rpcList.text();
      expect(rpcText).toContain(hook.url);
      expect(rpcText).not.toMatch(secrets);
      const restList = await fetch(
        `${h.server.url}/a2a/rest/tasks/${result.id}/pushNotificationConfigs`,
        { headers: V1_JSON },
      );
      const restText = await restList.text();
      expect(restText).toContain(hook.url);
      expect(restText).not.toMatch(secrets);
    },
    TIMEOUT,
  );

  it(
    "answers a REST delete 200 with {}, which a client that parses every body reads",
    async () => {
      const hook = perTest(await WebhookReceiver.start());
      const h = await a2a({
        rules: [says("Hello", "Hi.", "hello")],
        config: { server: { pushAllowPrivateNetworks: true } },
      });
      const task = await h.send("Hello");
      const created = await h.client.createTaskPushNotificationConfig(
        pushConfig(hook.url, TOKEN, task.id),
      );
      const url = `${h.server.url}/a2a/rest/tasks/${task.id}/pushNotificationConfigs/${created.id}`;
      const res = await fetch(url, { method: "DELETE", headers: V1_JSON });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      const left = await h.client.listTaskPushNotificationConfig({
        tenant: "",
        taskId: task.id,
        pageSize: 10,
        pageToken: "",
      });
      expect(left.configs).toEqual([]);
    },
    TIMEOUT,
  );
});
