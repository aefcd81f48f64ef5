import {
  pushTargetPolicy,
  resolvePushTarget,
  systemResolve,
  type PushTargetPolicy,
  type Resolve,
  type ResolvedAddress,
} from "../a2a/push/target.js";
import { realTimers, type Timers } from "../common/timers.js";
import { MAX_REDIRECTS, redirectTarget, retryStep, sendsToken } from "./decisions.js";
import { sendPinned, type SendPinned } from "./pinned-fetch.js";

/**
 * How every request to a peer goes out (docs/peers.md "Limits"): through the same address check
 * as a push notification's webhook (`a2a/push/target.ts`), so a peer on a loopback, private or
 * link-local address is refused unless its `allowPrivateNetwork` is true; connected to exactly
 * the addresses that check passed, as a webhook delivery is (`pinned-fetch.ts`), so the name is
 * resolved once per request and a rebinding DNS answer cannot redirect it; with the peer's
 * bearer token on the configured origins only (`sendsToken`); bounded by `requestTimeoutMs` until the response's headers come (a streamed
 * answer is then bounded by the call's own timeout); tried again as `retryStep` says, on the same
 * addresses. A redirect of a read is a new request: checked and pinned anew.
 */
export interface OutboundOptions {
  readonly allowPrivateNetwork: boolean;
  readonly requestTimeoutMs: number;
  readonly retries: number;
  /**
   * The bearer token, read from the environment when the call is made, and the origins it may
   * go to (`sendsToken`).
   */
  readonly bearer?: { readonly token: string; readonly origins: readonly string[] } | undefined;
  /** Injectable: tests never resolve a real host. */
  readonly resolve?: Resolve;
  /**
   * Injectable: a transport in place of the pinned one, for tests that never open a socket (it
   * gets the URL and init only; the addresses were checked all the same).
   */
  readonly fetch?: typeof fetch;
  readonly timers?: Timers;
}

/** A request the address check refused: it never left this server. */
export class PeerRefusedError extends Error {}

const urlOf = (input: Parameters<typeof fetch>[0]): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;

function sleep(timers: Timers, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const handle = timers.setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        timers.clearTimeout(handle);
        resolve();
      },
      { once: true },
    );
  });
}

/** The addresses a request to `url` may connect to, or the refusal, said of a peer. */
async function checkedAddresses(
  url: string,
  policy: PushTargetPolicy,
): Promise<readonly ResolvedAddress[]> {
  const target = await resolvePushTarget(url, policy);
  if (target.ok) return target.addresses;
  const reason = target.reason
    .replace(/webhook/g, "peer")
    .replace(/server\.pushAllowPrivateNetworks/, "the peer's allowPrivateNetwork");
  throw new PeerRefusedError(`Refused to call ${url}: ${reason}.`);
}

/** The `fetch` of the A2A client toward one peer. */
export function outboundFetch(o: OutboundOptions): typeof fetch {
  const policy = pushTargetPolicy(o.allowPrivateNetwork, o.resolve ?? systemResolve);
  const injected = o.fetch;
  const send: SendPinned = injected ? (url, init) => injected(url.href, init) : sendPinned;
  const timers = o.timers ?? realTimers;

  /** One request on checked addresses, with its retries. */
  async function attempts(
    url: string,
    addresses: readonly ResolvedAddress[],
    init: RequestInit | undefined,
  ): Promise<Response> {
    const headers = new Headers(init?.headers);
    if (o.bearer !== undefined && sendsToken(url, o.bearer.origins)) {
      headers.set("authorization", `Bearer ${o.bearer.token}`);
    } else {
      headers.delete("authorization");
    }
    for (let attempt = 0; ; attempt++) {
      const timeout = new AbortController();
      const handle = timers.setTimeout(
        () => timeout.abort(new Error(`no answer within ${o.requestTimeoutMs} ms`)),
        o.requestTimeoutMs,
      );
      const signals = [timeout.signal, ...(init?.signal ? [init.signal] : [])];
      try {
        const response = await send(
          new URL(url),
          { ...init, headers, signal: AbortSignal.any(signals) },
          addresses,
        );
        const step = retryStep({ status: response.status }, attempt, o.retries);
        if (!step.retry) return response;
        await response.body?.cancel();
        await sleep(timers, step.delayMs, init?.signal ?? undefined);
      } catch (err) {
        const aborted = init?.signal?.aborted === true;
        const step = retryStep(aborted ? { aborted: true } : { network: true }, attempt, o.retries);
        if (!step.retry) {
          if (timeout.signal.aborted) throw new Error(`${url}: ${String(timeout.signal.reason)}`);
          throw err;
        }
        await sleep(timers, step.delayMs, init?.signal ?? undefined);
      } finally {
        timers.clearTimeout(handle);
      }
    }
  }

  return async (input, init) => {
    const method = init?.method ?? "GET";
    let url = urlOf(input);
    for (let hop = 0; ; hop++) {
      const response = await attempts(url, await checkedAddresses(url, policy), init);
      const next = redirectTarget(response.status, response.headers.get("location"), url, method);
      if (next === undefined) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
      url = next;
    }
  };
}
