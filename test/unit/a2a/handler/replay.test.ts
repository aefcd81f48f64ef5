/**
 * Numbered events, replay from a cursor and idempotent sends, through the server as production
 * wires it (`createAgent`, scripted SDK): each stream item's number, the events after a cursor,
 * a repeated send that starts nothing, another caller's key refused, a retried answer to a
 * permission prompt that answers nothing more, and the numbers in push notifications (a webhook
 * receiver on 127.0.0.1).
 */
import { TaskState, type SendMessageRequest, type StreamResponse, type Task } from "@a2a-js/sdk";
import { ServerCallContext, STATE_HEADERS_KEY } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { eventNumberOf } from "../../../../src/a2a/channel/event-numbers.js";
import { CallerUser } from "../../../../src/identity/caller.js";
import { reply, sdk } from "../../claude/support/sdk-messages.js";
import { perTest } from "../../../support/harness/scope.js";
import { pushConfig, WebhookReceiver, type Delivery } from "../../../support/webhook.js";
import {
  askPermission,
  describeEvent,
  idsOf,
  isState,
  agent,
  sentStamp,
  StreamReader,
  userMessage,
  type ScriptedAgent,
} from "../support/agent.js";

const { TASK_STATE_COMPLETED, TASK_STATE_INPUT_REQUIRED } = TaskState;

const request = (
  messageId: string,
  text: string,
  ids: { taskId?: string; contextId?: string } = {},
): SendMessageRequest => ({
  tenant: "",
  message: { ...userMessage(text, ids), messageId },
  configuration: undefined,
  metadata: undefined,
});

/** A call context as a binding builds it, with these request headers. */
const withHeaders = (headers: Record<string, string>, user?: CallerUser) => {
  const context = new ServerCallContext(user ? { user } : {});
  context.state.set(STATE_HEADERS_KEY, headers);
  return context;
};

const numbers = (events: readonly StreamResponse[]) => events.map((e) => eventNumberOf(e));

/** One streamed turn, scripted to its end: the reader, and the task's id. */
async function completedTurn(agent: ScriptedAgent, messageId = "m-1") {
  const reader = new StreamReader(
    agent.agent.requestHandler.sendMessageStream(request(messageId, "hi"), agent.context),
  );
  const stamp = await sentStamp(agent, 0);
  await agent.fake.query.feed(...reply(stamp, "a1", "Hello there."));
  await reader.until(isState(TASK_STATE_COMPLETED));
  await reader.done;
  return { reader, taskId: idsOf(reader).taskId };
}

const drain = async (stream: AsyncGenerator<StreamResponse, void, undefined>) => {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
};

describe("event numbers", () => {
  it("numbers a task's events 1, 2, 3 … with no gap, and GetTask says the last", async () => {
    const h = await agent();
    const { reader, taskId } = await completedTurn(h);
    const n = numbers(reader.events);
    expect(n).toEqual(n.map((_, i) => i + 1));
    const task = await h.agent.requestHandler.getTask({ tenant: "", id: taskId }, h.context);
    expect(task.metadata?.eventNumber).toBe(n.length);
  });
});

describe("replay from a cursor", () => {
  it("gives exactly the events after the cursor (Last-Event-ID), even of a finished task", async () => {
    const h = await agent();
    const { reader, taskId } = await completedTurn(h);
    for (const cursor of [0, 1, 2, reader.events.length - 1]) {
      const replayed = await drain(
        h.agent.requestHandler.resubscribe(
          { tenant: "", id: taskId },
          withHeaders({ "last-event-id": String(cursor) }),
        ),
      );
      expect(replayed.map(describeEvent)).toEqual(reader.events.slice(cursor).map(describeEvent));
      expect(numbers(replayed)).toEqual(numbers(reader.events.slice(cursor)));
    }
  });

  it("refuses a cursor past the last event and one that is not a number, naming why", async () => {
    const h = await agent();
    const { reader, taskId } = await completedTurn(h);
    const last = reader.events.length;
    const subscribe = (cursor: string) =>
      drain(
        h.agent.requestHandler.resubscribe(
          { tenant: "", id: taskId },
          withHeaders({ "last-event-id": cursor }),
        ),
      );
    await expect(subscribe(String(last + 5))).rejects.toThrow(
      `Task ${taskId} has no event ${last + 5} yet (its last is ${last})`,
    );
    await expect(subscribe("-1")).rejects.toThrow('The cursor "-1" is not an event number');
  });

  it("a subscriber from a cursor mid-answer gets the rest once, then the live events", async () => {
    const h = await agent();
    const first = new StreamReader(
      h.agent.requestHandler.sendMessageStream(request("m-live", "hi"), h.context),
    );
    const stamp = await sentStamp(h, 0);
    const [init, start, block, delta, ...rest] = reply(stamp, "a1", "Hello there.");
    await h.fake.query.feed(init, start, block, delta);
    await first.until((e) => e.payload?.$case === "statusUpdate");
    const { taskId } = idsOf(first);
    const cursor = 1;
    const resumed = new StreamReader(
      h.agent.requestHandler.resubscribe(
        { tenant: "", id: taskId },
        withHeaders({ "last-event-id": String(cursor) }),
      ),
    );
    await h.fake.query.feed(...rest);
    await first.done;
    await resumed.done;
    expect(resumed.events.map(describeEvent)).toEqual(
      first.events.slice(cursor).map(describeEvent),
    );
    expect(numbers(resumed.events)).toEqual(numbers(first.events.slice(cursor)));
  });
});

describe("idempotent sends", () => {
  it("a repeated streaming send starts nothing and replays its events from the start", async () => {
    const h = await agent();
    const { reader } = await completedTurn(h, "m-same");
    const again = await drain(
      h.agent.requestHandler.sendMessageStream(request("m-same", "hi"), h.context),
    );
    expect(again.map(describeEvent)).toEqual(reader.events.map(describeEvent));
    expect(h.fake.query.sent).toHaveLength(1);
  });

  it("a repeated blocking send answers with the task's final state", async () => {
    const h = await agent();
    const { taskId } = await completedTurn(h, "m-block");
    const again = await h.agent.requestHandler.sendMessage(request("m-block", "hi"), h.context);
    expect("id" in again && again.id).toBe(taskId);
    expect("status" in again && again.status?.state).toBe(TASK_STATE_COMPLETED);
    expect(h.fake.query.sent).toHaveLength(1);
  });

  it("the Idempotency-Key header is the key; another caller's repeat is a conflict", async () => {
    const h = await agent();
    const alice = new CallerUser({ kind: "token", name: "alice" });
    const bob = new CallerUser({ kind: "token", name: "bob" });
    const reader = new StreamReader(
      h.agent.requestHandler.sendMessageStream(
        request("m-a", "hi"),
        withHeaders({ "idempotency-key": "k-1" }, alice),
      ),
    );
    const stamp = await sentStamp(h, 0);
    await h.fake.query.feed(...reply(stamp, "a1", "Hello there."));
    await reader.done;
    // Another messageId, the same header: the same send.
    const again = await drain(
      h.agent.requestHandler.sendMessageStream(
        request("m-b", "hi"),
        withHeaders({ "idempotency-key": "k-1" }, alice),
      ),
    );
    expect(again.map(describeEvent)).toEqual(reader.events.map(describeEvent));
    await expect(
      drain(
        h.agent.requestHandler.sendMessageStream(
          request("m-c", "hi"),
          withHeaders({ "idempotency-key": "k-1" }, bob),
        ),
      ),
    ).rejects.toThrow('The idempotency key "k-1" was already used by another caller');
    expect(h.fake.query.sent).toHaveLength(1);
  });
});

/** Two Writes outside the workspace: each one asks permission (input-required). */
const OUTSIDE = (n: number) => ({ file_path: `/etc/outside-${n}.txt`, content: "x" });

/**
 * A task parked on a Write's permission prompt (tool use `tu-<n>`): its prompt's decision, which
 * settles when the prompt is answered.
 */
async function asksPermission(h: ScriptedAgent, n: number, stamp: string) {
  await h.fake.query.feed(sdk.toolUse(`m${n}`, `tu-${n}`, "Write", OUTSIDE(n), { stamp }));
  return { decision: askPermission(h.fake, `tu-${n}`, "Write", OUTSIDE(n)) };
}

/** Whether a promise has settled by now (after the pending I/O and microtasks ran). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** Every kept event of a task: replays from each stop (an input-required) to its last event. */
async function everyEvent(h: ScriptedAgent, taskId: string): Promise<StreamResponse[]> {
  const task = await h.agent.requestHandler.getTask({ tenant: "", id: taskId }, h.context);
  const all: StreamResponse[] = [];
  while (all.length < Number(task.metadata?.eventNumber)) {
    const cursor = { "last-event-id": String(all.length) };
    const more = await drain(
      h.agent.requestHandler.resubscribe({ tenant: "", id: taskId }, withHeaders(cursor)),
    );
    if (more.length === 0) break;
    all.push(...more);
  }
  return all;
}

const historyTexts = (task: Task | undefined) =>
  (task?.history ?? []).flatMap((m) =>
    m.parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])),
  );

describe("a retried answer to an input request", () => {
  it("is not a second answer: the next prompt stays open, one resume, nothing sent to Claude", async () => {
    const h = await agent();
    const first = new StreamReader(
      h.agent.requestHandler.sendMessageStream(request("m-ask", "write twice"), h.context),
    );
    const stamp = await sentStamp(h, 0);
    await h.fake.query.feed(sdk.init());
    await asksPermission(h, 1, stamp);
    await first.until(isState(TASK_STATE_INPUT_REQUIRED), "the first prompt");
    const ids = idsOf(first);

    // The answer: it resumes the run, which asks again (a second prompt, input-required again).
    const answer = new StreamReader(
      h.agent.requestHandler.sendMessageStream(request("m-yes", "yes", ids), h.context),
    );
    await answer.until((e) => describeEvent(e) === "status:WORKING:resumed", "the resume");
    const { decision: decision2 } = await asksPermission(h, 2, stamp);
    await answer.until(isState(TASK_STATE_INPUT_REQUIRED), "the second prompt");
    await answer.done;
    const sent = h.fake.query.sent.length;

    // The same answer again (its response was lost): streaming, then blocking.
    const replayed = await drain(
      h.agent.requestHandler.sendMessageStream(request("m-yes", "yes", ids), h.context),
    );
    expect(replayed.map(describeEvent)).toEqual(answer.events.map(describeEvent));
    const blocking = (await h.agent.requestHandler.sendMessage(
      request("m-yes", "yes", ids),
      h.context,
    )) as Task;
    expect(blocking.status?.state).toBe(TASK_STATE_INPUT_REQUIRED);

    // The second prompt is still open: neither retry answered it.
    expect(await settled(decision2)).toBe(false);
    expect(h.fake.query.sent).toHaveLength(sent);
    const all = await everyEvent(h, ids.taskId);
    expect(numbers(all)).toEqual(all.map((_, i) => i + 1));
    expect(all.map(describeEvent).filter((e) => e === "status:WORKING:resumed")).toHaveLength(1);
    expect(historyTexts(await h.stored(ids.taskId)).filter((t) => t === "yes")).toHaveLength(1);

    // A new answer (a new messageId) answers the second prompt.
    const next = new StreamReader(
      h.agent.requestHandler.sendMessageStream(request("m-yes-2", "yes", ids), h.context),
    );
    expect(await decision2).toEqual({ behavior: "allow", updatedInput: OUTSIDE(2) });
    await h.fake.query.feed(sdk.result({ text: "written", stamp }));
    await next.until(isState(TASK_STATE_COMPLETED));
  });
});

/** The event number a webhook received (in the wire form's one payload: task, status, artifact). */
const numberOfDelivery = (d: Delivery): unknown =>
  (Object.values(d.body)[0] as { metadata?: { eventNumber?: unknown } } | undefined)?.metadata
    ?.eventNumber;

/** A streaming send of `text` naming the webhook at `url` for its task. */
const withWebhook = (messageId: string, text: string, url: string): SendMessageRequest => ({
  ...request(messageId, text),
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: pushConfig(url, "push-token"),
    historyLength: undefined,
    returnImmediately: false,
  },
});

/** The numbers a webhook received, once it has the one numbered `last` (delivered in order). */
async function pushedUpTo(hook: WebhookReceiver, last: number | undefined): Promise<unknown[]> {
  await hook.waitFor((d) => numberOfDelivery(d) === last);
  return hook.deliveries.map(numberOfDelivery);
}

describe("push notifications", () => {
  it("carry each event's number, the same as the stream's, in order", async () => {
    const hook = perTest(await WebhookReceiver.start());
    // The webhook is on loopback, refused by default.
    const h = await agent({ config: { server: { pushAllowPrivateNetworks: true } } });
    const reader = new StreamReader(
      h.agent.requestHandler.sendMessageStream(withWebhook("m-push", "hi", hook.url), h.context),
    );
    const stamp = await sentStamp(h, 0);
    await h.fake.query.feed(...reply(stamp, "a1", "Hello there."));
    await reader.until(isState(TASK_STATE_COMPLETED));
    await reader.done;
    const streamed = numbers(reader.events);
    expect(streamed.length).toBeGreaterThan(3);
    expect(await pushedUpTo(hook, streamed.at(-1))).toEqual(streamed);
  });

  it("of a parked task canceled (a status no open stream carries) carry the next number", async () => {
    const hook = perTest(await WebhookReceiver.start());
    const h = await agent({ config: { server: { pushAllowPrivateNetworks: true } } });
    const reader = new StreamReader(
      h.agent.requestHandler.sendMessageStream(withWebhook("m-park", "write", hook.url), h.context),
    );
    const stamp = await sentStamp(h, 0);
    await h.fake.query.feed(sdk.init());
    await asksPermission(h, 1, stamp);
    await reader.until(isState(TASK_STATE_INPUT_REQUIRED));
    await reader.done;
    const { taskId } = idsOf(reader);
    const canceled = await h.cancel(taskId);
    const last = Number(canceled.metadata?.eventNumber);
    expect(last).toBeGreaterThan(numbers(reader.events).length);
    const pushed = await pushedUpTo(hook, last);
    expect(pushed).toEqual(pushed.map((_, i) => i + 1));
    expect(hook.deliveries.at(-1)?.body).toMatchObject({
      statusUpdate: { status: { state: "TASK_STATE_CANCELED" } },
    });
  });
});
