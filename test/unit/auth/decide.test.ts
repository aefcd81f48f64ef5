import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  Authenticator,
  bearerToken,
  decideAuth,
  type AuthDecision,
  type AuthFacts,
} from "../../../src/auth/decide.js";
import { refusalStatus, type AuthRefusal } from "../../../src/auth/refusal.js";
import { StaticTokenVerifier } from "../../../src/auth/static-tokens.js";
import {
  AuthConfigError,
  CombinedVerifier,
  type BearerVerifier,
  type Verdict,
} from "../../../src/auth/verifier.js";
import { callerName, ownerKey, type Caller } from "../../../src/identity/caller.js";

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

const tokens = StaticTokenVerifier.from(
  [
    { name: "ci", sha256: sha256("ci-token") },
    { name: "laptop", env: "LAPTOP_TOKEN" },
  ],
  { LAPTOP_TOKEN: "laptop-token" },
);

const admitted = (caller: Caller): AuthDecision => ({ ok: true, caller });
const refusedWith = (refusal: AuthRefusal): AuthDecision => ({ ok: false, reason: refusal });
const anonymous = admitted({ kind: "anonymous" });
const login = (l: string) => admitted({ kind: "login", login: l });
const token = (name: string) => admitted({ kind: "token", name });
const missing = refusedWith({ kind: "missing" });
const forbidden = refusedWith({ kind: "login_forbidden" });

const good = (caller: Caller): Verdict => ({ ok: true, caller });
const expired: Verdict = {
  ok: false,
  reason: { kind: "invalid_token", problem: { kind: "expired" } },
};
const noScope: Verdict = { ok: false, reason: { kind: "insufficient_scope", missing: ["a2a"] } };
const down: Verdict = { ok: false, reason: { kind: "unavailable", cause: "ECONNREFUSED" } };

describe("decideAuth", () => {
  const policy = (o: { bearer?: boolean; logins?: string[] }) => ({
    bearerRequired: o.bearer ?? false,
    allowedLogins: new Set(o.logins ?? []),
  });
  it.each<[string, { bearer?: boolean; logins?: string[] }, AuthFacts, AuthDecision]>([
    ["open server, nothing sent", {}, { bearer: undefined, login: undefined }, anonymous],
    ["open server, proxied login", {}, { bearer: undefined, login: "ada@x" }, login("ada@x")],
    [
      "logins gate: listed",
      { logins: ["ada@x"] },
      { bearer: undefined, login: "ada@x" },
      login("ada@x"),
    ],
    [
      "logins gate: unlisted",
      { logins: ["ada@x"] },
      { bearer: undefined, login: "bob@x" },
      forbidden,
    ],
    [
      "logins gate: no login",
      { logins: ["ada@x"] },
      { bearer: undefined, login: undefined },
      forbidden,
    ],
    [
      "bearer: a good token",
      { bearer: true },
      { bearer: good({ kind: "token", name: "ci" }), login: undefined },
      token("ci"),
    ],
    [
      "bearer: a good OIDC token",
      { bearer: true },
      { bearer: good({ kind: "oidc", subject: "u-1" }), login: undefined },
      admitted({ kind: "oidc", subject: "u-1" }),
    ],
    [
      "bearer: its refusal, as is",
      { bearer: true },
      { bearer: expired, login: undefined },
      refusedWith({ kind: "invalid_token", problem: { kind: "expired" } }),
    ],
    [
      "bearer: scope refusal",
      { bearer: true },
      { bearer: noScope, login: undefined },
      refusedWith({ kind: "insufficient_scope", missing: ["a2a"] }),
    ],
    [
      "bearer: provider down",
      { bearer: true },
      { bearer: down, login: undefined },
      refusedWith({ kind: "unavailable", cause: "ECONNREFUSED" }),
    ],
    ["bearer: nothing sent", { bearer: true }, { bearer: undefined, login: undefined }, missing],
    [
      "bearer: a login alone is not a token",
      { bearer: true },
      { bearer: undefined, login: "ada@x" },
      missing,
    ],
    [
      "bearer + logins: allowed login",
      { bearer: true, logins: ["ada@x"] },
      { bearer: undefined, login: "ada@x" },
      login("ada@x"),
    ],
    [
      "bearer + logins: token wins",
      { bearer: true, logins: ["ada@x"] },
      { bearer: good({ kind: "token", name: "ci" }), login: "ada@x" },
      token("ci"),
    ],
    [
      "bearer + logins: a wrong token is refused even for an allowed login",
      { bearer: true, logins: ["ada@x"] },
      { bearer: expired, login: "ada@x" },
      refusedWith({ kind: "invalid_token", problem: { kind: "expired" } }),
    ],
    [
      "bearer + logins: unlisted login",
      { bearer: true, logins: ["ada@x"] },
      { bearer: undefined, login: "bob@x" },
      missing,
    ],
  ])("%s", (_label, p, facts, expected) => {
    expect(decideAuth(facts, policy(p))).toEqual(expected);
  });

  it("maps each refusal to its HTTP status", () => {
    expect(
      (
        [
          { kind: "missing" },
          { kind: "login_forbidden" },
          { kind: "invalid_token", problem: { kind: "unknown" } },
          { kind: "insufficient_scope", missing: ["x"] },
          { kind: "unavailable", cause: "" },
        ] satisfies AuthRefusal[]
      ).map(refusalStatus),
    ).toEqual([401, 403, 401, 403, 503]);
  });
});

describe("Authenticator with static tokens", () => {
  const auth = (logins?: string[]) =>
    new Authenticator({ verifier: new CombinedVerifier(tokens, undefined), allowedLogins: logins });
  const invalid = (kind: "unknown" | "not_bearer") =>
    refusedWith({ kind: "invalid_token", problem: { kind } });

  it.each<[string, string | undefined, AuthDecision]>([
    ["right token", "Bearer ci-token", token("ci")],
    ["env token, any case and spacing", "bearer   laptop-token", token("laptop")],
    ["wrong token", "Bearer nope", invalid("unknown")],
    ["a JWT-looking token no verifier checks", "Bearer a.b.c", invalid("unknown")],
    ["not a bearer header", "Basic Y2k6Y2k=", invalid("not_bearer")],
    ["empty bearer", "Bearer ", invalid("not_bearer")],
    ["nothing sent", undefined, missing],
  ])("%s", async (_label, authorization, expected) => {
    expect(await auth().authenticate({ authorization, login: undefined })).toEqual(expected);
  });

  it("ignores the Authorization header on an open server", async () => {
    const open = new Authenticator({});
    expect(await open.authenticate({ authorization: "Bearer x", login: undefined })).toEqual(
      anonymous,
    );
  });

  it("asks the OIDC verifier only for what looks like a JWT when static tokens exist", async () => {
    const asked: string[] = [];
    const oidc: BearerVerifier = {
      required: true,
      verify: (t) => {
        asked.push(t);
        return Promise.resolve(good({ kind: "oidc", subject: "s" }));
      },
    };
    const both = new CombinedVerifier(tokens, oidc);
    expect(await both.verify("ci-token")).toEqual(good({ kind: "token", name: "ci" }));
    expect(await both.verify("nope")).toMatchObject({ ok: false });
    expect(await both.verify("aaa.bbb.ccc")).toEqual(good({ kind: "oidc", subject: "s" }));
    expect(asked).toEqual(["aaa.bbb.ccc"]);
    // Without static tokens every token is the OIDC verifier's to judge (it says "not a JWT").
    const oidcOnly = new CombinedVerifier(StaticTokenVerifier.from([]), oidc);
    await oidcOnly.verify("nope");
    expect(asked).toEqual(["aaa.bbb.ccc", "nope"]);
    expect(oidcOnly.required).toBe(true);
    expect(new CombinedVerifier(StaticTokenVerifier.from([]), undefined).required).toBe(false);
  });
});

describe("StaticTokenVerifier", () => {
  it("names the token that matches, and nothing for another or a prefix of it", () => {
    expect(tokens.match("ci-token")).toBe("ci");
    expect(tokens.match("laptop-token")).toBe("laptop");
    expect(tokens.match("ci-toke")).toBeUndefined();
    expect(tokens.match("ci-token ")).toBeUndefined();
    expect(tokens.match("")).toBeUndefined();
  });

  it("refuses to start when an env token's variable is unset or empty, naming it", () => {
    for (const env of [{}, { MISSING_TOKEN: "" }]) {
      expect(() => StaticTokenVerifier.from([{ name: "x", env: "MISSING_TOKEN" }], env)).toThrow(
        AuthConfigError,
      );
      expect(() => StaticTokenVerifier.from([{ name: "x", env: "MISSING_TOKEN" }], env)).toThrow(
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

describe("caller scopes", () => {
  it("keeps the anonymous scope apart from logins, tokens and subjects of any name", () => {
    const scopes = [
      ownerKey({ kind: "anonymous" }),
      ownerKey({ kind: "login", login: "unknown" }),
      ownerKey({ kind: "login", login: "anonymous" }),
      ownerKey({ kind: "token", name: "unknown" }),
      ownerKey({ kind: "login", login: "ci" }),
      ownerKey({ kind: "token", name: "ci" }),
      ownerKey({ kind: "oidc", subject: "ci" }),
      ownerKey({ kind: "oidc", subject: "token:ci" }),
    ];
    expect(new Set(scopes).size).toBe(scopes.length);
    expect(ownerKey({ kind: "oidc", subject: "u-1" })).toBe("oidc:u-1");
    expect(callerName({ kind: "anonymous" })).toBe("anonymous");
    expect(callerName({ kind: "token", name: "ci" })).toBe("ci");
    expect(callerName({ kind: "oidc", subject: "u-1" })).toBe("u-1");
  });
});
