import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";

/** A fetch that adds `Authorization: Bearer <token>` to every request. */
export function bearerFetch(token: string, base: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(
      init?.headers ?? (input instanceof Request ? input.headers : undefined),
    );
    headers.set("Authorization", `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
}

/** The official client for the agent at `url` (reads its card; JSON-RPC or HTTP+JSON). */
export async function connect(url: string, token?: string): Promise<Client> {
  if (token === undefined || token === "") return new ClientFactory().createFromUrl(url);
  const fetchImpl = bearerFetch(token);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [
      new JsonRpcTransportFactory({ fetchImpl }),
      new RestTransportFactory({ fetchImpl }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(url);
}

/** One line saying what went wrong, with the network cause when there is one. */
export function errorMessage(err: unknown, url?: string): string {
  const e = err as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const message = typeof e?.message === "string" ? e.message : String(err);
  const code = typeof e?.cause?.code === "string" ? e.cause.code : undefined;
  if (code === "ECONNREFUSED" || /fetch failed/i.test(message)) {
    const why = code ?? (typeof e?.cause?.message === "string" ? e.cause.message : message);
    return `cannot reach the agent${url ? ` at ${url}` : ""} (${why}). Is the server running? Set --url or A2A_URL.`;
  }
  // The SDK's transports put the HTTP status in the text: "... Status: 401 Unauthorized. ...".
  const status = /\b(?:Status:|stream for \S+:)\s*(40[13])\b/.exec(message)?.[1];
  if (status === "401") {
    return "the agent requires a bearer token, and none or a wrong one was sent: pass --token or set A2A_TOKEN.";
  }
  if (status === "403") {
    return "the agent refused this caller (403): your login is not in its server.allowedLogins.";
  }
  return message.split("\n")[0] ?? message;
}
