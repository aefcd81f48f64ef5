/**
 * `/healthz` under a storage fault (docs/reliability.md "Health under storage faults"), with the
 * real runtime and the official client: the SQLite store on a filesystem that runs out of room.
 * Once a write has failed, `/healthz` answers 200 `degraded` naming the part and the fault, the
 * tasks stored before are still served; room again, the next write succeeds and it is `ok`.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { STORE_FAULT_TEXT } from "../../src/contract/store-faults.js";
import { describeStream, says } from "../support/harness/index.js";
import { a2aStoringIn, fill, smallFilesystemForFile } from "../support/harness/small-filesystem.js";

interface Health {
  status: string;
  store: { reachable: boolean; faults?: { part: string; fault: string; error: string }[] };
}
const health = async (url: string) => {
  const res = await fetch(`${url}/healthz`);
  return { code: res.status, body: (await res.json()) as Health };
};

const mounted = await smallFilesystemForFile("claude-a2a-degraded-");

describe("/healthz under a storage fault", () => {
  it.skipIf(mounted === undefined)(
    "SQLite without room: 200 degraded naming the tasks' write fault, earlier tasks still served; room again: ok (skipped where tmpfs cannot be mounted: not root)",
    async () => {
      const dir = mounted ?? "";
      const h = await a2aStoringIn(dir, {
        rules: [says(/^Hello/, "Hi there.", "hi")],
      });
      const url = h.server.url;
      const earlier = await h.send("Hello");
      expect(earlier.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await health(url)).toMatchObject({ code: 200, body: { status: "ok" } });

      const filler = join(dir, "filler");
      await fill(filler);
      const refused = await h.stream("Hello again").then(
        (events) => describeStream(events).join(" "),
        (error: unknown) => String(error),
      );
      expect(refused).toContain(STORE_FAULT_TEXT.full);

      const degraded = await health(url);
      expect(degraded.code).toBe(200);
      expect(degraded.body.status).toBe("degraded");
      // The database still answers: what failed is a write of the tasks (and, as the same disk
      // holds them, maybe of the replay events written behind), for want of room.
      expect(degraded.body.store.reachable).toBe(true);
      const faults = degraded.body.store.faults ?? [];
      expect(faults).toEqual(
        expect.arrayContaining([expect.objectContaining({ part: "tasks", fault: "full" })]),
      );
      expect(faults.every((f) => f.fault === "full")).toBe(true);
      // What was stored before is still served.
      const again = await h.client.getTask({ tenant: "", id: earlier.id, historyLength: 0 });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      await rm(filler);
      const after = await h.send("Hello once more");
      expect(after.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(await health(url)).toMatchObject({ code: 200, body: { status: "ok" } });
      expect((await health(url)).body.store.faults).toBeUndefined();
    },
    120_000,
  );
});
