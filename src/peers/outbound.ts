import {
  pushTargetPolicy,
  resolvePushTarget,
  systemResolve,
  type Resolve,
} from "../a2a/push/target.js";
import { realTimers, type Timers } from "../common/timers.js";
import { retryStep } from "./decisions.js";

/**
 * How every request to a peer goes out (docs/peers.md "Limits"): through the same address check
 * as a push notification's webhook (`a2a/push/target.ts`), so a peer on a loopback, private or
 * link-local address is refused unless its `allowPrivateNetwork` is true; with the peer's bearer
 * token; bounded by `requestTimeoutMs` until the response's headers come (a streamed answer is
 * then bounded by the call's own timeout); tried again as `retryStep` says.
 */
export interface OutboundOptions {
  readonly allowPrivateNetwork: boolean;
  readonly requestTimeoutMs: number;
  readonly retries: number;
  /** The bearer token, read from the environment when the call is made. */
  readonly token?: string | undefined;
  /** Injectable: tests never resolve or reach a real host. */
  readonly resolve?: Resolve;
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

/** The `fetch` of the A2A client toward one peer. */
export function outboundFetch(o: OutboundOptions): typeof fetch {
  const policy = pushTargetPolicy(o.allowPrivateNetwork, o.resolve ?? systemResolve);
  const base = o.fetch ?? fetch;
  const timers = o.timers ?? realTimers;
  return async (input, init) => {
    const url = urlOf(input);
    const target = await resolvePushTarget(url, policy);
    if (!target.ok) {
      const reason = target.reason
        .replace(/webhook/g, "peer")
        .replace(/server\.pushAllowPrivateNetworks/, "the peer's allowPrivateNetwork");
      throw new PeerRefusedError(`Refused to call ${url}: ${reason}.`);
    }
    const headers = new Headers(init?.headers);
    if (o.token !== undefined) headers.set("authorization", `Bearer ${o.token}`);
    for (let attempt = 0; ; attempt++) {
      const timeout = new AbortController();
      const handle = timers.setTimeout(
        () => timeout.abort(new Error(`no answer within ${o.requestTimeoutMs} ms`)),
        o.requestTimeoutMs,
      );
      const signals = [timeout.signal, ...(init?.signal ? [init.signal] : [])];
      try {
        const response = await base(input, { ...init, headers, signal: AbortSignal.any(signals) });
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
  };
}
