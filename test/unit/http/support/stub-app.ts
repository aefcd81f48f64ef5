/** The HTTP surface with a stub request handler, on 127.0.0.1:0: what the HTTP app tests share. */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AgentCard,
  type GetTaskRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { Authenticator } from "../../../../src/auth/decide.js";
import { createHttpApp, type HttpCommonOptions } from "../../../../src/http/app.js";
import type { A2aSurface } from "../../../../src/http/a2a-routes.js";
import { card, JSON_V1, okReply, UnsupportedHandler, workingTask } from "./stub-handler.js";

export const BODY_LIMIT = 200_000;

/** A stream whose first `next()` rejects: the SDK's "pre-stream error" path. */
export const failingStream = (err: Error) =>
  ({
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => Promise.reject(err),
    return: () => Promise.resolve({ done: true, value: undefined }),
    throw: () => Promise.reject(err),
  }) as unknown as AsyncGenerator<StreamResponse, void, undefined>;

/** Records the calls that reach it; answers GetTask and SendMessage. */
export class StubHandler extends UnsupportedHandler {
  readonly calls: { method: string; context: ServerCallContext; params: unknown }[] = [];

  constructor(private readonly agentCard: AgentCard = card) {
    super();
  }

  override getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(this.agentCard);
  }
  override getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    this.calls.push({ method: "getTask", context, params });
    return Promise.resolve(workingTask(params.id));
  }
  override sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message> {
    this.calls.push({ method: "sendMessage", context, params });
    return Promise.resolve(okReply({}));
  }
}

export interface Running {
  url: string;
  cardBuiltAt: Date;
  handler: StubHandler;
  logs: Record<string, unknown>[];
  /** Resolves once `n` request lines have been logged. */
  logged(n: number): Promise<Record<string, unknown>[]>;
}

let server: Server | undefined;

/** Stops the app `start` started (each test file's `afterEach`). */
export async function stopApp(): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  server.close();
  await once(server, "close");
  server = undefined;
}

/** The app over a fresh StubHandler; `options` are added to (or override) the test defaults. */
export async function start(
  allowedLogins?: string[],
  level = "info",
  options: Partial<HttpCommonOptions & A2aSurface> = {},
): Promise<Running> {
  const handler = new StubHandler(options.card);
  const logs: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        logs.push(JSON.parse(line) as Record<string, unknown>);
        for (const w of waiters.splice(0)) w();
      },
    },
  );
  const cardBuiltAt = new Date(Date.now() - 3_600_000);
  const app = createHttpApp({
    card,
    requestHandler: handler,
    bodyLimit: BODY_LIMIT,
    auth: new Authenticator({ allowedLogins }),
    logger,
    cardBuiltAt,
    ...options,
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const logged = async (n: number) => {
    while (logs.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return logs;
  };
  return { url: `http://127.0.0.1:${port}`, cardBuiltAt, handler, logs, logged };
}

export const rpc = (method: string, params: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
export const sendParams = (text: string) => ({
  message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text }] },
});
export const post = (url: string, body: string, headers: Record<string, string> = JSON_V1) =>
  fetch(url, { method: "POST", headers, body });
