import { BlockList, isIP } from "node:net";
import type { Request } from "express";
import type { User } from "@a2a-js/sdk/server";
import ipaddr from "ipaddr.js";

/** Set by `tailscale serve` on every request it proxies; believed only from a trusted proxy. */
export const TAILSCALE_LOGIN_HEADER = "tailscale-user-login";

/** Who a request comes from, once authentication has decided. */
export type Caller =
  | { readonly kind: "anonymous" }
  | { readonly kind: "login"; readonly login: string }
  | { readonly kind: "token"; readonly name: string };

export const ANONYMOUS: Caller = { kind: "anonymous" };

/** What logs and `ServerCallContext.state.caller` show: the login, the token's name, or `anonymous`. */
export function callerName(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return "anonymous";
    case "login":
      return caller.login;
    case "token":
      return caller.name;
  }
}

/**
 * The scope a caller's tasks, push configs and conversations live in. The SDK's stores scope by
 * `User.userName` and put every unauthenticated call in one scope named `unknown`; prefixing the
 * authenticated names keeps a login literally named `unknown` (or a token named like a login)
 * out of anyone else's scope.
 */
export function ownerKey(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return ANONYMOUS_OWNER;
    case "login":
      return `login:${caller.login}`;
    case "token":
      return `token:${caller.name}`;
  }
}

/** The SDK's `resolveUserScope` for an unauthenticated call. */
export const ANONYMOUS_OWNER = "unknown";

/** The A2A SDK's view of a caller: `userName` is its scope, never shown to anyone. */
export class CallerUser implements User {
  constructor(readonly caller: Caller) {}
  get isAuthenticated(): boolean {
    return this.caller.kind !== "anonymous";
  }
  get userName(): string {
    return ownerKey(this.caller);
  }
}

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
}

/**
 * The login a trusted proxy asserts for this request; undefined from any other peer (anyone can
 * send the header, only the proxy's is worth believing).
 */
export function proxiedLogin(
  req: Pick<Request, "header" | "socket">,
  trusted: TrustedProxies,
): string | undefined {
  if (!trusted.has(req.socket.remoteAddress)) return undefined;
  const login = req.header(TAILSCALE_LOGIN_HEADER)?.trim();
  return login ? login : undefined;
}
