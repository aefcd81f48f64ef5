import { describe, expect, it, vi } from "vitest";
import { refusalMessage } from "../../../src/contract/auth-messages.js";
import { challenge } from "../../../src/http/auth.js";
import { peerAddress, proxiedLogin, TrustedProxies } from "../../../src/http/caller.js";

describe("trusted proxies", () => {
  const trusted = new TrustedProxies(["127.0.0.1", "::1"]);

  it("trusts exactly the listed peers, IPv4-mapped forms included", () => {
    expect(trusted.has("127.0.0.1")).toBe(true);
    expect(trusted.has("::ffff:127.0.0.1")).toBe(true);
    expect(trusted.has("::1")).toBe(true);
    for (const peer of ["127.0.0.2", "::ffff:127.0.0.2", "10.0.0.1", "fe80::1", "", undefined]) {
      expect(trusted.has(peer)).toBe(false);
    }
    expect(peerAddress("::ffff:10.1.2.3")).toBe("10.1.2.3");
  });

  it("reads the login header only from a trusted peer", () => {
    const req = (remoteAddress: string, value?: string) => ({
      socket: { remoteAddress },
      header: (name: string) => (name === "tailscale-user-login" ? value : undefined),
    });
    const fake = (r: ReturnType<typeof req>) => r as unknown as Parameters<typeof proxiedLogin>[0];
    expect(proxiedLogin(fake(req("127.0.0.1", " ada@x ")), trusted)).toBe("ada@x");
    expect(proxiedLogin(fake(req("127.0.0.2", "ada@x")), trusted)).toBeUndefined();
    expect(proxiedLogin(fake(req("127.0.0.1", "  ")), trusted)).toBeUndefined();
  });

  it("asks once per connection, and never remembers a connection without an address", () => {
    const proxies = new TrustedProxies(["127.0.0.1"]);
    const check = vi.spyOn(proxies, "has");
    const proxy = { remoteAddress: "127.0.0.1" };
    const other = { remoteAddress: "10.0.0.1" };
    for (let i = 0; i < 3; i++) {
      expect(proxies.hasPeerOf(proxy)).toBe(true);
      expect(proxies.hasPeerOf(other)).toBe(false);
    }
    expect(check).toHaveBeenCalledTimes(2);
    const closed: { remoteAddress?: string } = {};
    expect(proxies.hasPeerOf(closed)).toBe(false);
    closed.remoteAddress = "127.0.0.1";
    expect(proxies.hasPeerOf(closed)).toBe(true);
  });
});

describe("WWW-Authenticate", () => {
  it("challenges with the reason of a token refusal, and never for a login or an outage", () => {
    expect(challenge({ kind: "missing" })).toBe('Bearer realm="claude-a2a"');
    expect(challenge({ kind: "invalid_token", problem: { kind: "expired" } })).toBe(
      'Bearer realm="claude-a2a", error="invalid_token", error_description="The token has expired."',
    );
    expect(challenge({ kind: "insufficient_scope", missing: ["a2a.call", "read"] })).toBe(
      'Bearer realm="claude-a2a", error="insufficient_scope", error_description="The token ' +
        'lacks the scope this agent requires: a2a.call read.", scope="a2a.call read"',
    );
    expect(challenge({ kind: "login_forbidden" })).toBeUndefined();
    expect(challenge({ kind: "unavailable", cause: "x" })).toBeUndefined();
  });

  it("keeps a header value a quoted-string whatever the token carried", () => {
    const refusal = {
      kind: "invalid_token",
      problem: { kind: "unknown_key", kid: 'a"b\\c\u00e9' },
    } as const;
    expect(refusalMessage(refusal)).toContain('kid "a"b');
    const header = challenge(refusal) ?? "";
    const description = /error_description="([^"]*)"$/.exec(header)?.[1];
    expect(description).toBe(
      "The token is signed with a key the identity provider does not publish (kid 'a'b?c?').",
    );
    expect(header).toMatch(/^[\x20-\x7e]+$/);
  });
});
