/**
 * REST answers of a method whose result is `google.protobuf.Empty` (DeleteTaskPushNotificationConfig):
 * `200 {}`, not the SDK's `204` with no body, on v1.0 and v0.3 routes; other answers untouched.
 */
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import { legacyAgentCardJson } from "../../../src/a2a/card/legacy-card.js";
import { resolveConfig } from "../../../src/config/load.js";
import { start, stopApp, type Running } from "./support/stub-app.js";
import { V1 } from "./support/stub-handler.js";

afterEach(stopApp);

function deletable(r: Running): string[] {
  const deleted: string[] = [];
  const remove = (params: { taskId: string; id: string }) => {
    deleted.push(`${params.taskId}/${params.id}`);
    return Promise.resolve();
  };
  Object.assign(r.handler, { deleteTaskPushNotificationConfig: remove });
  return deleted;
}

describe("REST delete of a push config", () => {
  it("answers 200 with {} in the binding's media type (v1.0)", async () => {
    const r = await start();
    const deleted = deletable(r);
    const res = await fetch(`${r.url}/a2a/rest/tasks/t-1/pushNotificationConfigs/c-1`, {
      method: "DELETE",
      headers: V1,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/a2a\+json/);
    expect(await res.json()).toEqual({});
    expect(deleted).toEqual(["t-1/c-1"]);
  });

  it("answers 200 with {} on v0.3's route too (server.compat.v03)", async () => {
    const compatCard = buildAgentCard(
      resolveConfig({ server: { compat: { v03: true } } }, { file: "t.json", startDir: "/work" }),
      { version: "0.0.0" },
    );
    const r = await start(undefined, "info", {
      card: compatCard,
      compatV03: { legacyCard: await legacyAgentCardJson(compatCard) },
    });
    const deleted = deletable(r);
    const res = await fetch(`${r.url}/a2a/rest/v1/tasks/t-1/pushNotificationConfigs/c-1`, {
      method: "DELETE",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({});
    expect(deleted).toEqual(["t-1/c-1"]);
  });

  it("leaves an error answer as it is", async () => {
    const r = await start();
    const res = await fetch(`${r.url}/a2a/rest/tasks/t-1/pushNotificationConfigs/c-1`, {
      method: "DELETE",
      headers: V1,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: "not in this stub" } });
  });
});
