import type { TaskPushNotificationConfig } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { CachedPushConfigStore } from "../../../src/store/push-config-cache.js";

/** An inner store of plain arrays that counts its reads. */
function counted() {
  const rows = new Map<string, TaskPushNotificationConfig[]>();
  const store = {
    loads: 0,
    save: (taskId: string, _c: ServerCallContext, config: TaskPushNotificationConfig) => {
      rows.set(taskId, [...(rows.get(taskId) ?? []), structuredClone(config)]);
      return Promise.resolve();
    },
    load: (taskId: string) => {
      store.loads++;
      return Promise.resolve(structuredClone(rows.get(taskId) ?? []));
    },
    delete: (taskId: string) => {
      rows.delete(taskId);
      return Promise.resolve();
    },
  };
  return store;
}

const ctx = { tenant: "" } as unknown as ServerCallContext;
const config = (id: string): TaskPushNotificationConfig =>
  ({ id, taskId: "t1", url: "https://hooks.example/x", token: "", tenant: "" }) as never;

describe("CachedPushConfigStore", () => {
  it("reads the database once, then from memory; a caller changing what it read changes nothing", async () => {
    const inner = counted();
    const cache = new CachedPushConfigStore(inner, () => "alice");
    await cache.save("t1", ctx, config("a"));
    const first = await cache.load("t1", ctx);
    first[0]!.url = "https://changed.example/";
    first.push(config("b"));
    const second = await cache.load("t1", ctx);
    second[0]!.url = "https://changed-again.example/";
    expect(await cache.load("t1", ctx)).toEqual([config("a")]);
    expect(inner.loads).toBe(1);
  });

  it("a write or delete drops the task's entry: the next read sees it", async () => {
    const inner = counted();
    const cache = new CachedPushConfigStore(inner, () => "alice");
    expect(await cache.load("t1", ctx)).toEqual([]);
    await cache.save("t1", ctx, config("a"));
    expect(await cache.load("t1", ctx)).toEqual([config("a")]);
    await cache.delete("t1", ctx);
    expect(await cache.load("t1", ctx)).toEqual([]);
    expect(inner.loads).toBe(3);
  });

  it("keeps at most its capacity, the oldest dropped first", async () => {
    const inner = counted();
    const cache = new CachedPushConfigStore(inner, () => "alice", 2);
    for (const id of ["t1", "t2", "t3"]) await cache.load(id, ctx);
    await cache.load("t3", ctx);
    expect(inner.loads).toBe(3);
    await cache.load("t1", ctx);
    expect(inner.loads).toBe(4);
  });
});
