/**
 * Webhooks apart, end to end: two webhooks of one task, one refusing (`400`), one accepting, each
 * with its own delivery queue. The refusing one is also held on its first POST until the
 * accepting one has the task's last event, so nothing there can wait for it; it then gets each
 * event once (a 400 is not retried). The accepting one gets what a task with only it gets. A 429
 * with `Retry-After` is retried, the order kept behind it. Ordering and counts, no timing.
 */
import { describe, expect, it } from "vitest";
import { a2a, asks, idsOf, perTest } from "../support/harness/index.js";
import {
  pushConfig,
  statusOf,
  WebhookReceiver,
  type Delivery,
  type HookAnswer,
} from "../support/webhook.js";

const TIMEOUT = 120_000;
const rules = asks("Paint the fence", { answer: /blue/, then: "Painting it blue.", name: "blue" });
const config = { server: { pushAllowPrivateNetworks: true } };

/** A delivery as its kind: `status:<state>:<metadata.kind>` or `artifact`. */
function shapeOf(d: Delivery): string {
  const update = d.body.statusUpdate as
    { status?: { state?: string; message?: { metadata?: { kind?: string } } } } | undefined;
  if (update !== undefined) {
    return `status:${update.status?.state ?? ""}:${update.status?.message?.metadata?.kind ?? ""}`;
  }
  return d.body.artifactUpdate !== undefined ? "artifact" : Object.keys(d.body).join(",");
}
const statuses = (ds: readonly Delivery[]) =>
  ds.map(shapeOf).filter((s) => s.startsWith("status:"));
const completed = (d: Delivery) => statusOf(d)?.state === "TASK_STATE_COMPLETED";

/** Parks "Paint the fence", registers `hooks` on it, answers "blue" and waits for the end. */
async function paintWith(h: Awaited<ReturnType<typeof a2a>>, hooks: WebhookReceiver[]) {
  const parked = await h.watch("Paint the fence").done;
  const ids = idsOf(parked);
  for (const hook of hooks) {
    await h.client.createTaskPushNotificationConfig(pushConfig(hook.url, "tok", ids.taskId));
  }
  await h.send("blue", ids);
  return ids.taskId;
}

describe("webhooks apart", () => {
  it(
    "a refusing webhook delays no other, and gets each event once",
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const refusing = perTest(
        await WebhookReceiver.start(async (_d, i): Promise<HookAnswer> => {
          if (i === 0) await released;
          return { status: 400 };
        }),
      );
      const accepting = perTest(await WebhookReceiver.start());
      const h = await a2a({ rules, config });
      await paintWith(h, [refusing, accepting]);
      // The accepting webhook has the last event while the refusing one still holds the first.
      await accepting.waitFor(completed);
      expect(refusing.deliveries).toHaveLength(1);
      release();
      await refusing.waitFor(completed);

      const alone = perTest(await WebhookReceiver.start());
      const solo = await a2a({ rules, config });
      await paintWith(solo, [alone]);
      await alone.waitFor(completed);

      expect(statuses(accepting.deliveries)).toEqual(statuses(alone.deliveries));
      expect(accepting.deliveries.map(shapeOf).at(-1)).toBe("status:TASK_STATE_COMPLETED:");
      // Once each, in the same order: the 400s were not retried.
      expect(refusing.deliveries.map((d) => d.body)).toEqual(
        accepting.deliveries.map((d) => d.body),
      );
    },
    TIMEOUT,
  );

  it(
    "retries a 429 with Retry-After, keeping the events behind it in order",
    async () => {
      const busy = perTest(
        await WebhookReceiver.start((_d, i) =>
          i === 0 ? { status: 429, headers: { "Retry-After": "1" } } : { status: 200 },
        ),
      );
      const h = await a2a({ rules, config });
      await paintWith(h, [busy]);
      await busy.waitFor(completed);
      const bodies = busy.deliveries.map((d) => JSON.stringify(d.body));
      // The first event twice (refused, then retried), then every other once, in order.
      expect(bodies[1]).toBe(bodies[0]);
      expect(new Set(bodies.slice(1)).size).toBe(bodies.length - 1);
      expect(busy.deliveries.map(shapeOf).at(-1)).toBe("status:TASK_STATE_COMPLETED:");
    },
    TIMEOUT,
  );
});
