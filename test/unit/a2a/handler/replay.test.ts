/**
 * Numbered events, replay from a cursor and idempotent sends, through the server as production
 * wires it (`createAgent`, scripted SDK): each stream item's number, the events after a cursor,
 * a repeated send that starts nothing, another caller's key refused.
 */
import { TaskState, type SendMessageRequest, type StreamResponse } from "@a2a-js/sdk";
import { ServerCallContext, STATE_HEADERS_KEY } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { eventNumberOf } from "../../../../src/a2a/handler/event-numbers.js";
import { CallerUser } from "../../../../src/identity/caller.js";
import { reply } from "../../claude/support/sdk-messages.js";
import {
  describeEvent,
  idsOf,
  isState,
  agent,
  sentStamp,
  StreamReader,
  userMessage,
  type ScriptedAgent,
} from "../support/agent.js";

const { TASK_STATE_COMPLETED } = TaskState;

const request = (messageId: string, text: string): SendMessageRequest => ({
  tenant: "",
  message: { ...userMessage(text), messageId },
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
