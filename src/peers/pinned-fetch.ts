import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import type { ResolvedAddress } from "../a2a/push/target.js";
import { pinnedLookup } from "../a2a/push/webhook-post.js";

/**
 * One request to a peer, connected to exactly the addresses its check passed (docs/peers.md
 * "Limits"), the mechanism of a push notification's delivery (`a2a/push/webhook-post.ts`): the
 * connection's lookup answers with those addresses instead of asking DNS again, so a name that
 * resolves elsewhere a moment later (DNS rebinding) cannot move it. An IP literal host is not
 * looked up at all, and is then the checked address itself.
 *
 * undici's own `fetch` and `Agent` rather than the global `fetch`: only a dispatcher sets a
 * connection's lookup, and Node exposes no `Agent` to build one for its bundled undici. Redirects
 * are not followed here (`redirect: "manual"`): `outbound.ts` checks a hop as a new request.
 */
export type SendPinned = (
  url: URL,
  init: RequestInit,
  addresses: readonly ResolvedAddress[],
) => Promise<Response>;

export const sendPinned: SendPinned = async (url, init, addresses) => {
  // One dispatcher per request: its connections can only go to these addresses.
  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(addresses) } });
  try {
    // The same WHATWG shape the A2A client reads (status, headers, a web ReadableStream body).
    return await undiciFetch(url, {
      ...(init as UndiciRequestInit),
      headers: Object.fromEntries(new Headers(init.headers)),
      redirect: "manual",
      dispatcher,
    });
  } finally {
    // Graceful: a response still streaming (an SSE answer) goes on; its connection closes when
    // it ends, so no socket outlives its request.
    void dispatcher.close().catch(() => undefined);
  }
};
