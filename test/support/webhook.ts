import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message, SendMessageRequest, TaskPushNotificationConfig } from "@a2a-js/sdk";
import { sendRequest } from "./harness/messages.js";

/** A push-notification config for `url`, sending `token` (of `taskId`: "" when sent along). */
export const pushConfig = (
  url: string,
  token: string,
  taskId = "",
): TaskPushNotificationConfig => ({
  tenant: "",
  id: "",
  taskId,
  url,
  token,
  authentication: undefined,
});

/** SendMessage of `message` naming a webhook at `url` for the task it starts. */
export const withWebhook = (message: Message, url: string, token: string): SendMessageRequest => ({
  ...sendRequest(message),
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: pushConfig(url, token),
    historyLength: undefined,
    returnImmediately: false,
  },
});

export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body: a v1.0 StreamResponse in wire form. */
  readonly body: Record<string, unknown>;
}

/** How a receiver answers a POST: a status and headers (default 200). */
export interface HookAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
}

/** Chooses the answer to the `index`-th POST (0-based), which is already in `deliveries`. */
export type Answering = (d: Delivery, index: number) => HookAnswer | Promise<HookAnswer>;

/**
 * A push-notification receiver on 127.0.0.1 that records every POST on arrival and answers 200,
 * or what `answering` says. The server under test needs `server.pushAllowPrivateNetworks: true`
 * to call it (loopback is refused by default).
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  private waiters: (() => void)[] = [];
  private server: Server | undefined;
  private address = "";

  /** The webhook's URL. */
  get url(): string {
    return this.address;
  }

  static async start(answering?: Answering): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    const answer: Answering = answering ?? (() => ({ status: 200 }));
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        } catch {
          body = { unparsable: true };
        }
        const delivery = { headers: req.headers, body };
        const index = receiver.deliveries.push(delivery) - 1;
        receiver.wake();
        void Promise.resolve(answer(delivery, index)).then((a) => {
          res.writeHead(a.status, a.headers).end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    receiver.server = server;
    receiver.address = `http://127.0.0.1:${port}/hook`;
    return receiver;
  }

  /** Resolves with the first delivery (past or future) that satisfies `pred`. */
  async waitFor(pred: (d: Delivery) => boolean, timeoutMs = 30_000): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.deliveries.find(pred);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error("webhook: no matching delivery in time");
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1_000).unref();
      });
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** `{ statusUpdate: { taskId, status: { state } } }` → ["taskId", "TASK_STATE_…"]. */
export function statusOf(d: Delivery): { taskId: string; state: string } | undefined {
  const update = d.body.statusUpdate as
    { taskId?: string; status?: { state?: string } } | undefined;
  if (update?.taskId === undefined) return undefined;
  return { taskId: update.taskId, state: update.status?.state ?? "" };
}
