import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type CallInterceptor,
  type Client,
  type Transport,
  type TransportFactory,
} from "@a2a-js/sdk/client";
import type { AgentCard } from "@a2a-js/sdk";
import { RefusedError, refusalFetch } from "./refusal.js";
import { workspacesError } from "./workspaces-hint.js";

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

/**
 * Adds `authorization: Bearer <token>` to every call's service parameters: gRPC metadata (the
 * HTTP transports' fetch sets the same header itself).
 */
export function bearerMetadata(token: string): CallInterceptor {
  return {
    before: (args) => {
      if (args.options !== undefined) {
        args.options.serviceParameters = {
          ...args.options.serviceParameters,
          authorization: `Bearer ${token}`,
        };
      }
      return Promise.resolve();
    },
    after: () => Promise.resolve(),
  };
}

/** `--transport`: the binding to use, by its name on the command line. */
export const TRANSPORTS = { jsonrpc: "JSONRPC", rest: "HTTP+JSON", grpc: "GRPC" } as const;
export type TransportChoice = keyof typeof TRANSPORTS;

export interface ConnectOptions {
  /** Only this binding; else the first one the agent card lists that this client speaks. */
  readonly transport?: TransportChoice | undefined;
  /** gRPC over TLS: trusting this CA certificate (PEM), or the system's CAs when `true`. */
  readonly grpcTls?: true | Buffer | undefined;
}

/**
 * What grpc-js dials for a card's GRPC url: `host:port` as it is; `grpc://` or `http://` before it
 * means plaintext, `grpcs://` or `https://` TLS (cards written for clients that parse a URL). Pure.
 */
export function grpcTarget(url: string): { target: string; tls?: boolean } {
  const match = /^(grpcs?|https?):\/\/([^/]+)\/?$/i.exec(url);
  if (match === null) return { target: url };
  const scheme = (match[1] ?? "").toLowerCase();
  return { target: match[2] ?? "", tls: scheme === "grpcs" || scheme === "https" };
}

/** The SDK's gRPC transport, dialing `grpcTarget(url)`; TLS as asked, else as the URL says. */
class CardGrpcTransportFactory implements TransportFactory {
  constructor(private readonly tls: true | Buffer | undefined) {}
  get protocolName(): string {
    return TRANSPORTS.grpc;
  }
  // gRPC is loaded only when it is dialed: it doubles what a client costs to start.
  async create(url: string, card: AgentCard): Promise<Transport> {
    const [{ credentials }, { GrpcTransportFactory }] = await Promise.all([
      import("@grpc/grpc-js"),
      import("@a2a-js/sdk/client/grpc"),
    ]);
    const { target, tls } = grpcTarget(url);
    const wanted = this.tls ?? (tls === true ? true : undefined);
    const grpcChannelCredentials =
      wanted === undefined ? undefined : credentials.createSsl(wanted === true ? null : wanted);
    return await new GrpcTransportFactory(
      grpcChannelCredentials && { grpcChannelCredentials },
    ).create(target, card);
  }
}

/** The transports a client may use: every binding, or the one asked for. */
export function transportFactories(fetchImpl: typeof fetch, o: ConnectOptions): TransportFactory[] {
  const all: TransportFactory[] = [
    new JsonRpcTransportFactory({ fetchImpl }),
    new RestTransportFactory({ fetchImpl }),
    new CardGrpcTransportFactory(o.grpcTls),
  ];
  if (o.transport === undefined) return all;
  const name: string = TRANSPORTS[o.transport];
  return all.filter((t) => t.protocolName === name);
}

/**
 * The agent's URL as a base for the card's relative well-known path: one under a path (a
 * workspace's `/agents/<name>`, a proxy's prefix) gets the trailing slash without which the
 * card would be looked for one level up. Pure.
 */
export function agentBaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.pathname.endsWith("/")) return url;
    parsed.pathname = `${parsed.pathname}/`;
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * The official client for the agent at `url` (reads its card): JSON-RPC, HTTP+JSON or gRPC,
 * whichever the card lists first, or the one `transport` names.
 */
export async function connect(
  url: string,
  token?: string,
  o: ConnectOptions = {},
): Promise<Client> {
  const authenticated = token !== undefined && token !== "";
  const fetchImpl = refusalFetch(authenticated ? bearerFetch(token) : fetch);
  try {
    return await new ClientFactory({
      transports: transportFactories(fetchImpl, o),
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      ...(authenticated && { clientConfig: { interceptors: [bearerMetadata(token)] } }),
    }).createFromUrl(agentBaseUrl(url));
  } catch (err) {
    // The root of a server with workspaces has no card: say which workspaces it has.
    throw (await workspacesError(err, url, fetchImpl)) ?? err;
  }
}

const TOKEN_HINT =
  "the agent requires a bearer token, and none or a wrong one was sent: pass --token or set A2A_TOKEN.";
const LOGIN_HINT =
  "the agent refused this caller (403): your login is not in its server.allowedLogins.";

// gRPC status codes the client explains (the SDK's gRPC errors carry the code as `status`).
const GRPC_PERMISSION_DENIED = 7;
const GRPC_UNAVAILABLE = 14;
const GRPC_UNAUTHENTICATED = 16;

/** One line saying what went wrong, with the network cause when there is one. */
export function errorMessage(err: unknown, url?: string): string {
  const e = err as
    | {
        message?: unknown;
        transport?: unknown;
        status?: unknown;
        cause?: { code?: unknown; message?: unknown };
      }
    | undefined;
  const message = typeof e?.message === "string" ? e.message : String(err);
  if (err instanceof RefusedError) {
    return withReason(err.status === 401 ? TOKEN_HINT : LOGIN_HINT, err.reason);
  }
  const code = typeof e?.cause?.code === "string" ? e.cause.code : undefined;
  if (code === "ECONNREFUSED" || /fetch failed/i.test(message)) {
    const why = code ?? (typeof e?.cause?.message === "string" ? e.cause.message : message);
    return `cannot reach the agent${url ? ` at ${url}` : ""} (${why}). Is the server running? Set --url or A2A_URL.`;
  }
  if (e?.transport === "grpc") {
    const reason = grpcReason(message);
    if (e.status === GRPC_UNAUTHENTICATED) return withReason(TOKEN_HINT, reason);
    if (e.status === GRPC_PERMISSION_DENIED) return withReason(LOGIN_HINT, reason);
    if (e.status === GRPC_UNAVAILABLE) {
      return `cannot reach the agent's gRPC binding (${message.split("\n")[0] ?? message}): is the address in its card reachable from here, and does --grpc-tls match the server?`;
    }
  }
  if (/^No compatible transport found/.test(message)) {
    const asked = message.replace(/^.*: /, "");
    return `the agent's card lists no interface this client may use (${asked}): with --transport, try another one or leave it out.`;
  }
  // The SDK's transports put the HTTP status in the text: "... Status: 401 Unauthorized. ...".
  const status = /\b(?:Status:|stream for \S+:)\s*(40[13])\b/.exec(message)?.[1];
  if (status === "401") return withReason(TOKEN_HINT, serverReason(message));
  if (status === "403") return withReason(LOGIN_HINT, serverReason(message));
  return message.split("\n")[0] ?? message;
}

/**
 * The server's words in a gRPC error's text: after the SDK's "gRPC error for <method>: " and
 * the status code ("16 " or grpc-js's "16 UNAUTHENTICATED: "). Pure.
 */
export function grpcReason(message: string): string | undefined {
  const first = (message.split("\n")[0] ?? "").replace(/^gRPC error(?: for \S+)?: /, "");
  const reason = /^\d+(?: [A-Z_]+:)? (.+)$/.exec(first)?.[1]?.trim();
  return reason === "" ? undefined : reason;
}

/** The server's own reason first ("The bearer token has expired."), then what to do. Pure. */
function withReason(hint: string, reason: string | undefined): string {
  return reason === undefined || reason === "" ? hint : `${reason} (${hint})`;
}

/**
 * The `message` of the JSON body the SDK's transports quote after "Response: " (the server's
 * 401/403 body: `{ error, message }`; a REST error: `{ error: { message } }`). Pure.
 */
export function serverReason(text: string): string | undefined {
  const at = text.indexOf("Response: ");
  if (at === -1) return undefined;
  try {
    const body = JSON.parse(text.slice(at + "Response: ".length)) as {
      message?: unknown;
      error?: { message?: unknown };
    };
    const reason = typeof body.message === "string" ? body.message : body.error?.message;
    return typeof reason === "string" ? reason.split("\n")[0]?.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}
