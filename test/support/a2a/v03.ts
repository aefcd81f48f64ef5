/**
 * The real A2A v0.3 client (`@a2a-js/sdk` 0.3.14, installed as the `v03` alias) and views of what
 * it receives, for the v0.3 compatibility tests (`server.compat.v03`).
 */
import type { Message, Part, Task, TaskStatusUpdateEvent } from "v03";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "v03/client";
import { bearerFetch } from "../../../src/client/connect.js";

/**
 * The v0.3 client for the agent at `url`, from its card: JSON-RPC unless `transport` says
 * otherwise, with `Authorization: Bearer <token>` on every call when `token` is given.
 */
export function connectV03(
  url: string,
  o: { transport?: "JSONRPC" | "HTTP+JSON"; token?: string } = {},
): Promise<Client> {
  const fetchImpl = o.token === undefined ? undefined : bearerFetch(o.token);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    ...(o.transport && { preferredTransports: [o.transport] }),
    ...(fetchImpl && {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  });
  return new ClientFactory(options).createFromUrl(url);
}

export const v03Text = (text: string): Part => ({ kind: "text", text });
export const v03Data = (data: Record<string, unknown>): Part => ({ kind: "data", data });

/** A v0.3 user message, as such a client builds it. */
export function v03Message(
  parts: Part[] | string,
  ids: { taskId?: string; contextId?: string } = {},
): Message {
  return {
    kind: "message",
    messageId: crypto.randomUUID(),
    role: "user",
    parts: typeof parts === "string" ? [v03Text(parts)] : parts,
    ...(ids.taskId && { taskId: ids.taskId }),
    ...(ids.contextId && { contextId: ids.contextId }),
  };
}

/** Collects a whole v0.3 stream. */
export async function collectV03<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

type Item = { kind: string } & Record<string, unknown>;

/** One line per event: `task:<state>`, `status:<state>[:<metadata.kind>]`, `artifact:<kind>`. */
export function describeV03(events: readonly unknown[]): string[] {
  return (events as Item[]).map((e) => {
    switch (e.kind) {
      case "task":
        return `task:${(e as unknown as Task).status.state}`;
      case "status-update": {
        const s = (e as unknown as TaskStatusUpdateEvent).status;
        const kind = s.message?.metadata?.kind as string | undefined;
        return `status:${s.state}${kind ? `:${kind}` : ""}`;
      }
      case "artifact-update": {
        const kind = (e.artifact as { metadata?: { kind?: string } }).metadata?.kind;
        return `artifact:${kind ?? "?"}`;
      }
      default:
        return e.kind;
    }
  });
}

/** The last status update of a v0.3 stream, with its text and its data part. */
export function lastV03Status(events: readonly unknown[]) {
  const update = (events as Item[])
    .filter((e): e is Item & TaskStatusUpdateEvent => e.kind === "status-update")
    .at(-1);
  const parts = update?.status.message?.parts ?? [];
  const data = parts.find((p) => p.kind === "data");
  return {
    state: update?.status.state,
    final: update?.final,
    kind: update?.status.message?.metadata?.kind as string | undefined,
    text: parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join(""),
    data: data?.kind === "data" ? data.data : undefined,
  };
}

/** The task id and context id of the task a v0.3 stream started with. */
export function v03Ids(events: readonly unknown[]): { taskId: string; contextId: string } {
  const first = events[0] as Item | undefined;
  if (first?.kind !== "task") throw new Error("the stream did not start with a task");
  const task = first as unknown as Task;
  return { taskId: task.id, contextId: task.contextId };
}

/**
 * The JSON-RPC error a v0.3 client call was answered with. The client throws its own error
 * class for each A2A code with a fixed text; the server's message is on `errorResponse`.
 */
export async function v03Error(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    const response = (err as { errorResponse?: { error?: { code: number; message: string } } })
      .errorResponse;
    if (response?.error) return response.error;
    throw err;
  }
  throw new Error("the call succeeded");
}
