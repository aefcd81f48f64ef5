import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  AuthConfigError,
  bearerToken,
  decideAuth,
  TokenVerifier,
  type AuthDecision,
  type AuthPolicy,
} from "../../../src/http/auth.js";
import { peerAddress, proxiedLogin, TrustedProxies } from "../../../src/http/caller.js";
import { callerName, ownerKey } from "../../../src/identity/caller.js";

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

const verifier = TokenVerifier.from(
  [
    { name: "ci", sha256: sha256("ci-token") },
    { name: "laptop", env: "LAPTOP_TOKEN" },
  ],
  { LAPTOP_TOKEN: "laptop-token" },
);

function policy(o: { tokens?: boolean; logins?: string[] }): AuthPolicy {
  return {
    verify: (t) => verifier.verify(t),
    tokensRequired: o.tokens ?? false,
    allowedLogins: new Set(o.logins ?? []),
  };
}

const ok = (caller: Extract<AuthDecision, { ok: true }>["caller"]): AuthDecision => ({
  ok: true,
  caller,
});
const anonymous = ok({ kind: "anonymous" });
const login = (l: string) => ok({ kind: "login", login: l });
const token = (name: string) => ok({ kind: "token", name });
const missing: AuthDecision = { ok: false, status: 401, invalidToken: false };
const invalid: AuthDecision = { ok: false, status: 401, invalidToken: true };
const forbidden: AuthDecision = { ok: false, status: 403 };

describe("decideAuth", () => {
  it.each<
    [
      string,
      { tokens?: boolean; logins?: string[] },
      string | undefined,
      string | undefined,
      AuthDecision,
    ]
  >([
    ["open server, nothing sent", {}, undefined, undefined, anonymous],
    ["open server, proxied login", {}, undefined, "ada@x", login("ada@x")],
    ["open server ignores a bearer header", {}, "Bearer whatever", undefined, anonymous],
    ["logins gate: listed", { logins: ["ada@x"] }, undefined, "ada@x", login("ada@x")],
    ["logins gate: unlisted", { logins: ["ada@x"] }, undefined, "bob@x", forbidden],
    [
      "logins gate: none (header from an untrusted peer)",
      { logins: ["ada@x"] },
      undefined,
      undefined,
      forbidden,
    ],
    ["tokens: right token", { tokens: true }, "Bearer ci-token", undefined, token("ci")],
    ["tokens: env token", { tokens: true }, "bearer   laptop-token", undefined, token("laptop")],
    ["tokens: wrong token", { tokens: true }, "Bearer nope", undefined, invalid],
    ["tokens: not a bearer header", { tokens: true }, "Basic Y2k6Y2k=", undefined, invalid],
    ["tokens: empty bearer", { tokens: true }, "Bearer ", undefined, invalid],
    ["tokens: nothing sent", { tokens: true }, undefined, undefined, missing],
    ["tokens: a login alone is not a token", { tokens: true }, undefined, "ada@x", missing],
    [
      "tokens + logins: allowed login",
      { tokens: true, logins: ["ada@x"] },
      undefined,
      "ada@x",
      login("ada@x"),
    ],
    [
      "tokens + logins: token wins",
      { tokens: true, logins: ["ada@x"] },
      "Bearer ci-token",
      "ada@x",
      token("ci"),
    ],
    [
      "tokens + logins: a wrong token is refused even for an allowed login",
      { tokens: true, logins: ["ada@x"] },
      "Bearer nope",
      "ada@x",
      invalid,
    ],
    [
      "tokens + logins: unlisted login",
      { tokens: true, logins: ["ada@x"] },
      undefined,
      "bob@x",
      missing,
    ],
  ])("%s", (_label, p, authorization, proxied, expected) => {
    expect(decideAuth({ authorization, login: proxied }, policy(p))).toEqual(expected);
  });
});

describe("TokenVerifier", () => {
  it("names the token that matches, and nothing for another or a prefix of it", () => {
    expect(verifier.verify("ci-token")).toBe("ci");
    expect(verifier.verify("laptop-token")).toBe("laptop");
    expect(verifier.verify("ci-toke")).toBeUndefined();
    expect(verifier.verify("ci-token ")).toBeUndefined();
    expect(verifier.verify("")).toBeUndefined();
  });

  it("refuses to start when an env token's variable is unset or empty, naming it", () => {
    for (const env of [{}, { MISSING_TOKEN: "" }]) {
      expect(() => TokenVerifier.from([{ name: "x", env: "MISSING_TOKEN" }], env)).toThrow(
        AuthConfigError,
      );
      expect(() => TokenVerifier.from([{ name: "x", env: "MISSING_TOKEN" }], env)).toThrow(
        /MISSING_TOKEN/,
      );
    }
  });

  it("parses only the Bearer form", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer\tabc ")).toBe("abc");
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken("Bearerabc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

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
});

describe("caller scopes", () => {
  it("keeps the anonymous scope apart from logins and tokens of any name", () => {
    const scopes = [
      ownerKey({ kind: "anonymous" }),
      ownerKey({ kind: "login", login: "unknown" }),
      ownerKey({ kind: "login", login: "anonymous" }),
      ownerKey({ kind: "token", name: "unknown" }),
      ownerKey({ kind: "login", login: "ci" }),
      ownerKey({ kind: "token", name: "ci" }),
    ];
    expect(new Set(scopes).size).toBe(scopes.length);
    expect(callerName({ kind: "anonymous" })).toBe("anonymous");
    expect(callerName({ kind: "token", name: "ci" })).toBe("ci");
  });
});
