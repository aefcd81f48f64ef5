import { BlockList, isIP } from "node:net";
import type { Request } from "express";
import type { User } from "@a2a-js/sdk/server";
import { ANONYMOUS, CallerUser, type Caller } from "../identity/caller.js";
import ipaddr from "ipaddr.js";

/** Set by `tailscale serve` on every request it proxies; believed only from a trusted proxy. */
export const TAILSCALE_LOGIN_HEADER = "tailscale-user-login";

const callers = new WeakMap<Request, Caller>();

/** Records who a request comes from (the auth gate does, before any handler runs). */
export function setCaller(req: Request, caller: Caller): void {
  callers.set(req, caller);
}

/** Who the request comes from: anonymous unless the auth gate said otherwise. */
export function callerOf(req: Request): Caller {
  return callers.get(req) ?? ANONYMOUS;
}

export function userFor(req: Request): Promise<User> {
  return Promise.resolve(new CallerUser(callerOf(req)));
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is `127.0.0.1`; undefined if not an IP. */
export function peerAddress(address: string | undefined): string | undefined {
  // isIP, not ipaddr.isValid: the latter also takes old forms such as "127.1".
  if (address === undefined || isIP(address) === 0) return undefined;
  return ipaddr.process(address).toString();
}

/** `server.trustedProxies`: the peers whose identity headers are believed. */
export class TrustedProxies {
  private readonly list = new BlockList();
  /**
   * Each connection's answer, asked once: a socket's peer does not change, and the check (a
   * parse, a normalization and a BlockList lookup, a few µs) was paid by every request of a
   * keep-alive connection.
   */
  private readonly bySocket = new WeakMap<object, boolean>();

  constructor(addresses: readonly string[]) {
    for (const address of addresses) {
      const family = isIP(address);
      if (family === 0) throw new TypeError(`not an IP address: ${address}`);
      this.list.addAddress(address, family === 4 ? "ipv4" : "ipv6");
    }
  }

  has(address: string | undefined): boolean {
    const peer = peerAddress(address);
    if (peer === undefined) return false;
    return this.list.check(peer, isIP(peer) === 4 ? "ipv4" : "ipv6");
  }

  /** `has` of a connection's peer, remembered for the connection's life. */
  hasPeerOf(socket: { readonly remoteAddress?: string | undefined }): boolean {
    const known = this.bySocket.get(socket);
    if (known !== undefined) return known;
    const address = socket.remoteAddress;
    const trusted = this.has(address);
    // No address (not connected yet, or closed): not trusted, and not remembered.
    if (address !== undefined) this.bySocket.set(socket, trusted);
    return trusted;
  }
}

/**
 * The login a trusted proxy asserts for this request; undefined from any other peer (anyone can
 * send the header, only the proxy's is worth believing).
 */
export function proxiedLogin(
  req: Pick<Request, "header" | "socket">,
  trusted: TrustedProxies,
): string | undefined {
  if (!trusted.hasPeerOf(req.socket)) return undefined;
  const login = req.header(TAILSCALE_LOGIN_HEADER)?.trim();
  return login ? login : undefined;
}
