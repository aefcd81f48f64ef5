import pg from "pg";
import type { Logger } from "pino";
import { CHANNEL } from "./tables.js";

type Channel = (typeof CHANNEL)[keyof typeof CHANNEL];
type Handler = (payload: string) => void;

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/**
 * One dedicated connection that LISTENs on the fleet's channels and hands each notification to
 * the handlers of its channel. A notification is only a wake-up: everything is read from the
 * tables, and every reader also polls, so a connection lost (and the notifications sent while it
 * was down) delays a reader by one poll, never loses anything. It reconnects on its own.
 */
export class FleetListener {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<Channel, Set<Handler>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /** Connects and listens; resolves once listening (rejects if the first connection fails). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Calls `handler` with every notification's payload on `channel`; returns the unsubscription. */
  on(channel: Channel, handler: Handler): () => void {
    let set = this.handlers.get(channel);
    if (set === undefined) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (n) => {
      for (const handler of this.handlers.get(n.channel as Channel) ?? []) handler(n.payload ?? "");
    });
    client.on("error", (err) => {
      this.logger.warn({ err }, "fleet LISTEN connection lost; reconnecting");
      this.lost(client);
    });
    client.on("end", () => this.lost(client));
    await client.connect();
    for (const channel of Object.values(CHANNEL)) await client.query(`LISTEN ${channel}`);
    this.client = client;
    // Whatever was announced while no connection listened: every reader looks again.
    for (const set of this.handlers.values()) for (const handler of set) handler("");
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.retry = setTimeout(() => void this.retryConnect(), RECONNECT_MS);
    this.retry.unref();
  }

  private async retryConnect(): Promise<void> {
    if (this.closed) return;
    try {
      await this.connect();
    } catch (err) {
      this.logger.warn({ err }, "fleet LISTEN reconnect failed");
      this.scheduleRetry();
    }
  }
}
