/**
 * Replay over the real gRPC binding (docs/reliability.md): the whole server but Claude
 * (`createAgent`, scripted queries) behind the gRPC server on 127.0.0.1:0, and the SDK's own gRPC
 * client. Every event carries `metadata.eventNumber`; a subscribe with the gRPC metadata
 * `last-event-id` gives exactly the events after it (of a finished task, and mid-answer followed by
 * the live ones); a retried streaming send with `metadata.lastEventId` (the cursor's form in the
 * request itself) replays from it and starts nothing.
 */
import { StreamResponse, TaskState, type SendMessageRequest } from "@a2a-js/sdk";
import { Client } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { eventNumberOf } from "../../../src/a2a/channel/event-numbers.js";
import { Authenticator } from "../../../src/auth/decide.js";
import { StaticTokenVerifier } from "../../../src/auth/static-tokens.js";
import { CombinedVerifier } from "../../../src/auth/verifier.js";
import { startGrpcServer } from "../../../src/grpc/server.js";
import { perTest } from "../../support/harness/scope.js";
import { reply } from "../claude/support/sdk-messages.js";
import {
  agent,
  idsOf,
  isState,
  sentStamp,
  StreamReader,
  userMessage,
  type ScriptedAgent,
} from "../a2a/support/agent.js";

const { TASK_STATE_COMPLETED } = TaskState;

/** A scripted agent served on gRPC (anonymous callers), and the SDK's gRPC client to it. */
async function grpcAgent(): Promise<{ h: ScriptedAgent; client: Client }> {
  // The card lists a GRPC interface (the port is only advertised): the SDK serves the versions
  // the card lists for the binding.
  const h = await agent({ config: { server: { grpc: { port: 50051 } } } });
  const server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    maxMessageBytes: 64 * 1024,
    requestHandler: h.agent.requestHandler,
    auth: {
      auth: new Authenticator({
        verifier: new CombinedVerifier(StaticTokenVerifier.from([]), undefined),
      }),
      trustedProxies: [],
    },
    logger: pino({ level: "silent" }),
  });
  perTest({
    close: async () => {
      const drained = server.drain();
      server.cut();
      await drained;
    },
  });
  const card = h.agent.card;
  const transport = await new GrpcTransportFactory().create(server.address, card);
  return { h, client: new Client(transport, card) };
}

const send = (messageId: string, metadata?: Record<string, unknown>): SendMessageRequest => ({
  tenant: "",
  message: { ...userMessage("hi"), messageId },
  configuration: undefined,
  metadata,
});

/** `last-event-id` as gRPC metadata on a call. */
const cursor = (n: number) => ({ serviceParameters: { "last-event-id": String(n) } });

const json = (events: readonly StreamResponse[]) => events.map((e) => StreamResponse.toJSON(e));
const numbers = (events: readonly StreamResponse[]) => events.map((e) => eventNumberOf(e));

/** One streamed turn over gRPC, scripted to its end: its events and task id. */
async function finishedTurn(h: ScriptedAgent, client: Client, messageId: string) {
  const reader = new StreamReader(client.sendMessageStream(send(messageId)));
  const stamp = await sentStamp(h, 0);
  await h.fake.query.feed(...reply(stamp, "a1", "Hello there."));
  await reader.until(isState(TASK_STATE_COMPLETED));
  expect(await reader.done).toBeUndefined();
  return { events: reader.events, taskId: idsOf(reader).taskId };
}

describe("replay over gRPC", () => {
  it("every event carries metadata.eventNumber 1, 2, 3 …; GetTask says the last; last-event-id metadata replays exactly the rest", async () => {
    const { h, client } = await grpcAgent();
    const { events, taskId } = await finishedTurn(h, client, "g-1");
    expect(events.length).toBeGreaterThan(3);
    expect(numbers(events)).toEqual(events.map((_, i) => i + 1));
    const task = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(task.metadata?.eventNumber).toBe(events.length);

    for (const n of [0, 2, events.length - 1]) {
      const replayed: StreamResponse[] = [];
      for await (const e of client.resubscribeTask({ tenant: "", id: taskId }, cursor(n)))
        replayed.push(e);
      expect(json(replayed)).toEqual(json(events.slice(n)));
    }
    await expect(
      (async () => {
        for await (const _ of client.resubscribeTask(
          { tenant: "", id: taskId },
          cursor(events.length + 3),
        ));
      })(),
    ).rejects.toThrow(`Task ${taskId} has no event ${events.length + 3} yet`);
  });

  it("a subscribe with last-event-id mid-answer gets the events after it once, then the live ones", async () => {
    const { h, client } = await grpcAgent();
    const first = new StreamReader(client.sendMessageStream(send("g-live")));
    const stamp = await sentStamp(h, 0);
    const [init, start, block, delta, ...rest] = reply(stamp, "a1", "Hello there.");
    await h.fake.query.feed(init, start, block, delta);
    await first.until((e) => e.payload?.$case === "statusUpdate");
    const { taskId } = idsOf(first);
    const resumed = new StreamReader(client.resubscribeTask({ tenant: "", id: taskId }, cursor(1)));
    // The resumed stream has caught up (its first event is the one after the cursor) before the
    // rest of the answer is published: what follows reaches it live.
    await resumed.until(() => true);
    await h.fake.query.feed(...rest);
    await first.until(isState(TASK_STATE_COMPLETED));
    expect(await resumed.done).toBeUndefined();
    expect(json(resumed.events)).toEqual(json(first.events.slice(1)));
    expect(numbers(resumed.events)).toEqual(first.events.slice(1).map((_, i) => i + 2));
  });

  it("a retried streaming send with metadata.lastEventId replays from that cursor and starts nothing", async () => {
    const { h, client } = await grpcAgent();
    const { events } = await finishedTurn(h, client, "g-retry");
    const again: StreamResponse[] = [];
    for await (const e of client.sendMessageStream(send("g-retry", { lastEventId: 3 })))
      again.push(e);
    expect(json(again)).toEqual(json(events.slice(3)));
    // A string cursor is the same cursor (as a header carries it).
    const asText: StreamResponse[] = [];
    for await (const e of client.sendMessageStream(send("g-retry", { lastEventId: "2" })))
      asText.push(e);
    expect(json(asText)).toEqual(json(events.slice(2)));
    expect(h.fake.query.sent).toHaveLength(1);
  });
});
