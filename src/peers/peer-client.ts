import type { AgentCard } from "@a2a-js/sdk";
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import type { Resolve } from "../a2a/push/target.js";
import type { Timers } from "../common/timers.js";
import type { PeerConfig, PeersConfig } from "../config/peers-schema.js";
import { cardUrlOf, tokenOrigins } from "./decisions.js";
import { outboundFetch } from "./outbound.js";

/** What reaches the outside: injectable so tests never resolve a name or open a socket. */
export interface PeerNetwork {
  readonly resolve?: Resolve;
  readonly fetch?: typeof fetch;
  readonly timers?: Timers;
  /** Where tokens are read (default: the server's environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One configured peer, and how to reach it with the official A2A client. */
export class Peer {
  private client: Promise<Client> | undefined;
  readonly cardUrl: string;

  constructor(
    readonly name: string,
    readonly config: PeerConfig,
    private readonly bounds: Pick<PeersConfig, "requestTimeoutMs" | "retries">,
    private readonly network: PeerNetwork = {},
  ) {
    this.cardUrl = cardUrlOf(config.url);
  }

  /** The `fetch` of every request to it: address check, token, timeout, retries. */
  fetch(): typeof fetch {
    const auth = this.config.auth;
    const token = auth === "none" ? undefined : (this.network.env ?? process.env)[auth.tokenEnv];
    if (auth !== "none" && (token === undefined || token === "")) {
      throw new Error(
        `Peer ${this.name}: the environment variable ${auth.tokenEnv} (its auth.tokenEnv) is not set.`,
      );
    }
    return outboundFetch({
      allowPrivateNetwork: this.config.allowPrivateNetwork,
      requestTimeoutMs: this.bounds.requestTimeoutMs,
      retries: this.bounds.retries,
      bearer:
        auth === "none" || token === undefined
          ? undefined
          : { token, origins: tokenOrigins(this.cardUrl, auth.origins) },
      ...this.network,
    });
  }

  /** Its card, read now. */
  async card(): Promise<AgentCard> {
    return new DefaultAgentCardResolver({ fetchImpl: this.fetch() }).resolve(this.cardUrl, "");
  }

  /** The official client from its card (read once; a failed read is tried again next time). */
  connect(): Promise<Client> {
    if (this.client === undefined) {
      const fetchImpl = this.fetch();
      const pending = new ClientFactory({
        transports: [
          new JsonRpcTransportFactory({ fetchImpl }),
          new RestTransportFactory({ fetchImpl }),
        ],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }).createFromUrl(this.cardUrl, "");
      this.client = pending;
      pending.catch(() => {
        if (this.client === pending) this.client = undefined;
      });
    }
    return this.client;
  }
}

/** The configured peers of a workspace, by name. */
export function peersOf(config: PeersConfig, network: PeerNetwork = {}): Map<string, Peer> {
  return new Map(
    Object.entries(config.agents).map(([name, peer]) => [
      name,
      new Peer(name, peer, config, network),
    ]),
  );
}
