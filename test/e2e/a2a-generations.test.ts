/**
 * A2A v1.1 task generations, as the generations extension serves them (docs/protocol.md): the
 * generation of a task and of each event in `metadata.generation`, GetTask with
 * `currentGeneration` waiting for the task to move, and `ifGenerationMatch` refusing a message to
 * a task that has moved; on JSON-RPC, HTTP+JSON and gRPC, with the official client (raw HTTP
 * where the client would hide the error's code).
 */
import { describe, expect, it } from "vitest";
import type { StreamResponse, Task } from "@a2a-js/sdk";
import { status as Status } from "@grpc/grpc-js";
import { GENERATIONS_EXTENSION_URI, GENERATION_KEY } from "../../src/contract/generations.js";
import {
  a2a,
  asks,
  collect,
  idsOf,
  rpcBody,
  says,
  sendRequest,
  userMessage,
  V1_JSON,
} from "../support/harness/index.js";

const TIMEOUT = 120_000;
const TRANSPORTS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
const rules = [
  ...asks("Paint the fence", { answer: /blue/, then: "Painting it blue.", name: "blue" }),
  says("Hello", "Hi.", "hello"),
];
const EXT = { "A2A-Extensions": GENERATIONS_EXTENSION_URI };
const withExt = { serviceParameters: EXT };
const after = (n: number) => ({
  serviceParameters: { ...EXT, "A2A-Current-Generation": String(n) },
});

const generationOf = (metadata: Record<string, unknown> | undefined) =>
  metadata?.[GENERATION_KEY] as number | undefined;
function itemGeneration(item: StreamResponse): number | undefined {
  const p = item.payload;
  return p === undefined || p.$case === "message" ? undefined : generationOf(p.value.metadata);
}
const getTask = (id: string) => ({ tenant: "", id, historyLength: 0 });

describe("task generations (the generations extension)", () => {
  it(
    "numbers a streamed task's events one by one, and only for a client that activates it",
    async () => {
      const h = await a2a({ rules });
      const items = await collect(
        h.client.sendMessageStream(sendRequest(userMessage("Hello")), withExt),
      );
      const generations = items.map(itemGeneration);
      const first = generations[0] ?? 0;
      expect(items.length).toBeGreaterThan(2);
      expect(generations).toEqual(generations.map((_, i) => first + i));
      const task = await h.client.getTask(getTask(idsOf(items).taskId), withExt);
      expect(generationOf(task.metadata)).toBe(generations.at(-1));

      const plain = await collect(h.client.sendMessageStream(sendRequest(userMessage("Hello"))));
      expect(plain.map(itemGeneration).every((g) => g === undefined)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "answers GetTask with currentGeneration at once when the task has moved, and when it moves later",
    async () => {
      const h = await a2a({ rules, grpc: true });
      const clients = await Promise.all(TRANSPORTS.map((transport) => h.connect({ transport })));
      const done = await h.send("Hello");
      const g = generationOf((await h.client.getTask(getTask(done.id), withExt)).metadata) ?? 0;
      expect(g).toBeGreaterThan(1);
      for (const client of clients) {
        const moved = await client.getTask(getTask(done.id), after(g - 1));
        expect(generationOf(moved.metadata)).toBe(g);
      }

      const parked = await h.watch("Paint the fence").done;
      const ids = idsOf(parked);
      const p = generationOf((await h.client.getTask(getTask(ids.taskId), withExt)).metadata) ?? 0;
      const waiting: Promise<Task>[] = clients.map((client) =>
        client.getTask(getTask(ids.taskId), after(p)),
      );
      await h.send("blue", ids);
      for (const answer of await Promise.all(waiting)) {
        // Not the parked task it was asked about: the task as the answer moved it.
        expect(generationOf(answer.metadata)).toBeGreaterThan(p);
      }
    },
    TIMEOUT,
  );

  it(
    "refuses a message whose ifGenerationMatch is stale (-32010, 409, ABORTED) and takes the current one",
    async () => {
      const h = await a2a({ rules, grpc: true });
      const grpc = await h.connect({ transport: "GRPC" });
      const parked = await h.watch("Paint the fence").done;
      const ids = idsOf(parked);
      const g = generationOf((await h.client.getTask(getTask(ids.taskId), withExt)).metadata) ?? 0;
      const answer = (generation: number) => ({
        message: {
          messageId: `m-${generation}`,
          role: "ROLE_USER",
          parts: [{ text: "blue" }],
          ...ids,
        },
        metadata: { ifGenerationMatch: generation },
      });
      const headers = { ...V1_JSON, ...EXT };

      const rpc = await fetch(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers,
        body: rpcBody("SendMessage", answer(g - 1)),
      });
      const rpcError = ((await rpc.json()) as { error?: { code: number; message: string } }).error;
      expect(rpcError?.code).toBe(-32010);
      expect(rpcError?.message).toBe(
        `Task ${ids.taskId} is at generation ${g}, not ${g - 1} (ifGenerationMatch): it has moved since; read it again, then send.`,
      );
      const rest = await fetch(`${h.server.url}/a2a/rest/message:send`, {
        method: "POST",
        headers,
        body: JSON.stringify(answer(g - 1)),
      });
      expect(rest.status).toBe(409);
      expect(await rest.json()).toMatchObject({ error: { code: 409, status: "ABORTED" } });
      const stale = sendRequest(userMessage("blue", ids));
      await expect(
        grpc.sendMessage({ ...stale, metadata: { ifGenerationMatch: g - 1 } }, withExt),
      ).rejects.toMatchObject({ status: Status.ABORTED });
      // The refusals touched nothing: still parked, at the same generation.
      const still = await h.client.getTask(getTask(ids.taskId), withExt);
      expect(generationOf(still.metadata)).toBe(g);

      const current = await fetch(`${h.server.url}/a2a/jsonrpc`, {
        method: "POST",
        headers,
        body: rpcBody("SendMessage", answer(g)),
      });
      const result = (await current.json()) as {
        result?: { task?: { status?: { state?: string } } };
      };
      expect(result.result?.task?.status?.state).toBe("TASK_STATE_COMPLETED");
    },
    TIMEOUT,
  );
});
