/**
 * How the page reaches the server: the official A2A client over the page's own origin, with a
 * fetch that adds `Authorization: Bearer <token>` when the tab has a token (kept in
 * `sessionStorage` only: it goes when the tab closes). Errors are sorted into what the page can
 * say honestly: unreachable, a token needed (401), refused (403), or anything else.
 */
import type { AgentCard } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type AgentCardResolver,
  type Client,
} from "@a2a-js/sdk/client";

const TOKEN_KEY = "claude-a2a.console.token";

export const storedToken = (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined;
export const storeToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);

/** An HTTP refusal of the auth gate (401, 403, 503), with the server's message. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "Refusal";
  }
}

export type Trouble =
  | { readonly kind: "unreachable"; readonly detail: string }
  | { readonly kind: "token"; readonly detail: string }
  | { readonly kind: "forbidden"; readonly detail: string }
  | { readonly kind: "error"; readonly detail: string };

/** What went wrong, from an error the client (or its fetch) threw. */
export function troubleOf(err: unknown): Trouble {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e instanceof Refusal) {
      if (e.status === 401) return { kind: "token", detail: e.message };
      if (e.status === 403) return { kind: "forbidden", detail: e.message };
      return { kind: "error", detail: `${e.status}: ${e.message}` };
    }
    if (e instanceof TypeError && /fetch|network|load failed/i.test(e.message)) {
      return { kind: "unreachable", detail: e.message };
    }
    e = (e as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : String(err);
  // The SDK's transports put the HTTP status in their messages ("... Status: 401 ...").
  const status = /\b(?:Status:|stream for \S+:)\s*(40[13])\b/.exec(message)?.[1];
  if (status === "401") return { kind: "token", detail: message };
  if (status === "403") return { kind: "forbidden", detail: message };
  return { kind: "error", detail: message.split("\n")[0] ?? message };
}

/** The message of a refusal's JSON body (`{error, message}`), or its status text. */
async function refusalOf(res: Response): Promise<Refusal> {
  let message = res.statusText || `HTTP ${res.status}`;
  try {
    const body = (await res.clone().json()) as { message?: unknown };
    if (typeof body.message === "string") message = body.message;
  } catch {
    // Not JSON: the status text says it.
  }
  return new Refusal(res.status, message);
}

/** `fetch` with the tab's token, throwing a `Refusal` on the auth gate's answers. */
export function consoleFetch(token: string | undefined): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(
      init?.headers ?? (input instanceof Request ? input.headers : undefined),
    );
    if (token !== undefined && token !== "") headers.set("Authorization", `Bearer ${token}`);
    const res = await fetch(input, { ...init, headers });
    if (res.status === 401 || res.status === 403 || res.status === 503) throw await refusalOf(res);
    return res;
  };
}

/**
 * The card as served, with every interface moved to the page's origin: the page talks to the
 * server that served it (the card's `publicUrl` may name another host, e.g. `localhost` against
 * `127.0.0.1`, which the browser would treat as a foreign origin).
 */
class SameOriginResolver implements AgentCardResolver {
  private readonly inner: DefaultAgentCardResolver;
  constructor(
    private readonly origin: string,
    fetchImpl: typeof fetch,
  ) {
    this.inner = new DefaultAgentCardResolver({ fetchImpl });
  }
  async resolve(baseUrl: string, path?: string): Promise<AgentCard> {
    const card = await this.inner.resolve(baseUrl, path);
    return {
      ...card,
      supportedInterfaces: card.supportedInterfaces.map((i) => {
        const url = new URL(i.url, this.origin);
        return { ...i, url: `${this.origin}${url.pathname}${url.search}` };
      }),
    };
  }
}

export interface Connection {
  readonly client: Client;
  readonly card: AgentCard;
}

/**
 * The agent the page belongs to: the folder above its own (`/console/` → `/`, a workspace's
 * `/agents/<name>/console/` → `/agents/<name>/`), with its trailing slash.
 */
export const agentBase = (page: string): string => new URL("../", new URL(".", page)).href;

/** Reads the card (public) of the agent at `base` and opens the official client over JSON-RPC (HTTP+JSON after it). */
export async function connect(base: string, token: string | undefined): Promise<Connection> {
  const fetchImpl = consoleFetch(token);
  const resolver = new SameOriginResolver(new URL(base).origin, fetchImpl);
  const card = await resolver.resolve(base);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
      cardResolver: resolver,
      preferredTransports: ["JSONRPC", "HTTP+JSON"],
    }),
  );
  return { client: await factory.createFromAgentCard(card), card };
}
