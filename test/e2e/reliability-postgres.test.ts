/**
 * PostgreSQL restarted mid-task (docs/reliability.md "Faults"), with the real runtime, the
 * scripted model and the official client: the server stays up, /healthz says degraded (200, the
 * store unreachable) and then ok again, the task completes, and its stored events are exactly the ones
 * the client received: none lost, none twice.
 */
import { TaskState, type StreamResponse } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { eventNumberOf } from "../../src/a2a/channel/event-numbers.js";
import {
  a2a,
  collect,
  describeStream,
  reply,
  shared,
  startPostgres,
  text,
} from "../support/harness/index.js";

const database = shared(startPostgres, 120_000);

const health = async (url: string) => {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, body: (await res.json()) as { status: string } };
};

/** `A2A_TEST_POSTGRES_URL` names a server of the caller's: this test may not stop it. */
const external = Boolean(process.env.A2A_TEST_POSTGRES_URL);

describe("PostgreSQL restarted mid-task", () => {
  it.skipIf(external)(
    "the server stays up, /healthz goes degraded then ok, the task completes, nothing lost or twice (skipped with A2A_TEST_POSTGRES_URL: it restarts the embedded PostgreSQL, never a server of yours)",
    async () => {
      const postgres = database();
      const restart = postgres.restart;
      if (restart === undefined) throw new Error("the embedded PostgreSQL has no restart");
      const url = await postgres.createDatabase();
      let release!: () => void;
      const outage = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const modelAsked = new Promise<void>((resolve) => (asked = resolve));
      const h = await a2a({
        config: { store: { type: "postgres", url, retainDays: 30 } },
        rules: [
          {
            name: "after-outage",
            match: { lastUserText: "Survive the outage" },
            // The model answers once the database is back: the task is mid-way meanwhile.
            reply: async () => {
              asked();
              await outage;
              return reply(text("Still here."), { chunkSize: 3 });
            },
          },
        ],
      });
      const server = h.server.url;
      const streamed = h.stream("Survive the outage");
      await modelAsked;
      expect((await health(server)).body.status).toBe("ok");

      await restart.stop();
      await expect
        .poll(async () => (await health(server)).body.status, { timeout: 30_000 })
        .toBe("degraded");
      expect((await health(server)).status).toBe(200);
      await restart.start();
      await expect
        .poll(async () => (await health(server)).body.status, { timeout: 60_000 })
        .toBe("ok");
      release();

      const events: StreamResponse[] = await streamed;
      expect(describeStream(events).at(-1)).toBe("status:completed");
      const first = events[0]?.payload;
      const taskId = first?.$case === "task" ? first.value.id : "";
      const stored = await h.client.getTask({ tenant: "", id: taskId, historyLength: 0 });
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // What the store kept for replay is exactly what the client received.
      const replayed = await collect(
        h.client.resubscribeTask(
          { tenant: "", id: taskId },
          { serviceParameters: { "Last-Event-ID": "0" } },
        ),
      );
      const numbers = events.map((e) => eventNumberOf(e));
      expect(replayed.map((e) => eventNumberOf(e))).toEqual(numbers);
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      expect(describeStream(replayed)).toEqual(describeStream(events));
    },
    180_000,
  );
});
