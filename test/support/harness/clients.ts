/** The official `@a2a-js/sdk` client, on the binding a test asks for. */
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { bearerFetch, bearerMetadata } from "../../../src/client/connect.js";

/** The card's names of the bindings. */
export type Transport = "JSONRPC" | "HTTP+JSON" | "GRPC";

export interface ClientOptions {
  /** Only this binding (default: the first one the card lists that the client speaks). */
  readonly transport?: Transport;
  /** Sent as `Authorization: Bearer <token>` (HTTP) or the same metadata (gRPC). */
  readonly token?: string;
  /** How the HTTP bindings and the card resolver fetch (e.g. to add a header). */
  readonly fetchImpl?: typeof fetch;
}

/** The official client of the agent at `url`, from its card. */
export function a2aClient(url: string, o: ClientOptions = {}): Promise<Client> {
  const base = o.fetchImpl ?? fetch;
  const fetchImpl = o.token === undefined ? base : bearerFetch(o.token, base);
  if (o.transport === undefined && o.token === undefined && o.fetchImpl === undefined) {
    return new ClientFactory().createFromUrl(url);
  }
  const all = [
    new JsonRpcTransportFactory({ fetchImpl }),
    new RestTransportFactory({ fetchImpl }),
    new GrpcTransportFactory(),
  ];
  return new ClientFactory({
    transports: o.transport === undefined ? all : all.filter((t) => t.protocolName === o.transport),
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    ...(o.token !== undefined && { clientConfig: { interceptors: [bearerMetadata(o.token)] } }),
  }).createFromUrl(url);
}
