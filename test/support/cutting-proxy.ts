/**
 * A loopback TCP proxy that cuts connections at random points: the faults of a network, a
 * sleeping laptop or a proxy timing out a long stream, for the reliability tests. Each new
 * connection, while cuts remain, is given a random budget of bytes the server may send through
 * it before both sides are destroyed (sometimes none: the request itself is lost). With no cuts,
 * it drops connections only when the test says (`dropOpen`).
 */
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface CuttingProxyOptions {
  /** The server's port on 127.0.0.1. */
  readonly target: number;
  /** How many connections to cut at most. */
  readonly cuts: number;
  /** The chance a new connection is given a budget (and so is cut once it is spent). */
  readonly probability: number;
  /** The largest byte budget of a cut connection. */
  readonly maxBytes: number;
  /** Random numbers in [0, 1) (a seeded source keeps a failure reproducible). */
  readonly random: () => number;
}

export interface CuttingProxy {
  readonly port: number;
  /** Connections cut so far. */
  readonly cut: () => number;
  /**
   * Drops every connection open now, both sides, whatever the cuts (a network drop the test
   * times); the number of connections dropped. New connections go on as before.
   */
  dropOpen(): number;
  close(): Promise<void>;
}

export async function startCuttingProxy(o: CuttingProxyOptions): Promise<CuttingProxy> {
  let cut = 0;
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: o.target });
    sockets.add(client).add(upstream);
    clients.add(client);
    const forget = () => {
      clients.delete(client);
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", forget);
    const destroy = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", destroy);
    upstream.on("error", destroy);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    // A tenth of the cuts lose the request itself; the rest let some of the answer through.
    let budget =
      cut >= o.cuts || o.random() >= o.probability
        ? Infinity
        : o.random() < 0.1
          ? -1
          : Math.floor(o.random() * o.maxBytes);
    /** Cuts now, unless every cut is made (then the connection lives on). */
    const cutNow = (): boolean => {
      if (cut >= o.cuts) {
        budget = Infinity;
        return false;
      }
      cut++;
      destroy();
      return true;
    };
    client.on("data", (chunk: Buffer) => {
      if (budget < 0 && cutNow()) return;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (chunk.length <= budget) {
        budget -= chunk.length;
        client.write(chunk);
        return;
      }
      const through = Math.max(0, budget);
      if (through > 0) client.write(chunk.subarray(0, through));
      if (!cutNow()) client.write(chunk.subarray(through));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no proxy port");
  return {
    port: address.port,
    cut: () => cut,
    dropOpen: () => {
      const dropped = clients.size;
      for (const s of sockets) s.destroy();
      return dropped;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

/** A seeded random source (mulberry32): the same seed, the same cuts. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
