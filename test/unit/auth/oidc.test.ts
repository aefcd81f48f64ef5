/**
 * The OpenID Connect verifier against a JWKS served from 127.0.0.1, with keys and tokens made
 * by jose in the test: every refusal, the subject as the caller, and the key set's cache.
 */
import { generateSecret, SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { refusalMessage } from "../../../src/contract/auth-messages.js";
import { KeysUnavailable, refusalOf } from "../../../src/auth/jose-problems.js";
import { grantedScopes, OidcVerifier, type OidcSettings } from "../../../src/auth/oidc.js";
import type { TokenProblem } from "../../../src/auth/refusal.js";
import { AuthConfigError, type Verdict } from "../../../src/auth/verifier.js";
import { freePort } from "../../support/a2a/harness.js";
import { AUDIENCE, ISSUER, makeKey, mint, startJwksServer } from "../../support/oidc.js";
import { useJwks } from "../../support/unit/jwks.js";

const idp = useJwks({
  key: { kid: "key-1", alg: "ES256" },
  rsa: { kid: "key-rsa", alg: "RS256" },
  // Same kid, another key: a forgery.
  stranger: { kid: "key-1", alg: "ES256", served: false },
});

const settings = (o: Partial<OidcSettings> = {}): OidcSettings => ({
  issuer: ISSUER,
  audience: [AUDIENCE],
  jwksUrl: idp.url,
  algorithms: ["ES256", "RS256"],
  subjectClaim: "sub",
  requiredScopes: [],
  clockToleranceSeconds: 30,
  ...o,
});

const problem = (p: TokenProblem): Verdict => ({
  ok: false,
  reason: { kind: "invalid_token", problem: p },
});

describe("OIDC verifier", () => {
  const verifier = () => OidcVerifier.from(settings());

  it("takes a valid token's subject as the caller, whichever accepted key signed it", async () => {
    const v = verifier();
    expect(await v.verify(await mint(idp.keys.key, { sub: "alice" }))).toEqual({
      ok: true,
      caller: { kind: "oidc", subject: "alice" },
    });
    expect(await v.verify(await mint(idp.keys.rsa, { sub: "bob" }))).toEqual({
      ok: true,
      caller: { kind: "oidc", subject: "bob" },
    });
    // One of several audiences is enough; a skew within the tolerance is forgiven.
    const multi = await mint(
      idp.keys.key,
      { sub: "c" },
      { audience: ["other", AUDIENCE], expiresIn: -5 },
    );
    expect(await v.verify(multi)).toMatchObject({ ok: true });
  });

  it.each<[string, () => Promise<string>, TokenProblem]>([
    ["expired", () => mint(idp.keys.key, { sub: "a" }, { expiresIn: -3600 }), { kind: "expired" }],
    [
      "wrong audience",
      () => mint(idp.keys.key, { sub: "a" }, { audience: "someone-else" }),
      { kind: "wrong_audience", expected: [AUDIENCE] },
    ],
    [
      "wrong issuer",
      () => mint(idp.keys.key, { sub: "a" }, { issuer: "https://evil.example" }),
      { kind: "wrong_issuer", expected: ISSUER },
    ],
    [
      "alg: none",
      () =>
        Promise.resolve(
          new UnsecuredJWT({ sub: "a" })
            .setIssuer(ISSUER)
            .setAudience(AUDIENCE)
            .setExpirationTime("10m")
            .encode(),
        ),
      { kind: "algorithm", alg: "none", accepted: ["ES256", "RS256"] },
    ],
    [
      "an HMAC token (a shared secret is never a provider's idp.keys.key)",
      async () =>
        new SignJWT({ sub: "a" })
          .setProtectedHeader({ alg: "HS256", kid: "key-1" })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime("10m")
          .sign(await generateSecret("HS256")),
      { kind: "algorithm", alg: "HS256", accepted: ["ES256", "RS256"] },
    ],
    [
      "unknown key",
      async () => mint(await makeKey("key-nobody-has"), { sub: "a" }),
      { kind: "unknown_key", kid: "key-nobody-has" },
    ],
    [
      "forged with a key of a known kid",
      () => mint(idp.keys.stranger, { sub: "a" }),
      { kind: "bad_signature" },
    ],
    [
      "payload changed after signing",
      async () => {
        const [h, , s] = (await mint(idp.keys.key, { sub: "a" })).split(".");
        const forged = Buffer.from(
          JSON.stringify({ sub: "admin", iss: ISSUER, aud: AUDIENCE, exp: 9_999_999_999 }),
        ).toString("base64url");
        return `${h}.${forged}.${s}`;
      },
      { kind: "bad_signature" },
    ],
    ["not a JWT", () => Promise.resolve("not-a-jwt"), { kind: "malformed" }],
    ["three segments of junk", () => Promise.resolve("abc.def.ghi"), { kind: "malformed" }],
    [
      "no exp",
      () => mint(idp.keys.key, { sub: "a" }, { exp: false }),
      { kind: "claim", claim: "exp" },
    ],
    [
      "not valid yet",
      () => mint(idp.keys.key, { sub: "a" }, { notBefore: 3600 }),
      { kind: "not_yet_valid" },
    ],
    ["no subject", () => mint(idp.keys.key, { name: "a" }), { kind: "no_subject", claim: "sub" }],
    ["empty subject", () => mint(idp.keys.key, { sub: "" }), { kind: "no_subject", claim: "sub" }],
  ])("refuses a token that is %s, saying so", async (_label, token, expected) => {
    const verdict = await verifier().verify(await token());
    expect(verdict).toEqual(problem(expected));
    if (!verdict.ok) expect(refusalMessage(verdict.reason)).not.toBe("");
  });

  it("accepts only the configured algorithms", async () => {
    const esOnly = OidcVerifier.from(settings({ algorithms: ["ES256"] }));
    expect(await esOnly.verify(await mint(idp.keys.rsa))).toEqual(
      problem({ kind: "algorithm", alg: "RS256", accepted: ["ES256"] }),
    );
    expect(await esOnly.verify(await mint(idp.keys.key))).toMatchObject({ ok: true });
  });

  it("names the caller by the configured claim", async () => {
    const byEmail = OidcVerifier.from(settings({ subjectClaim: "email" }));
    expect(await byEmail.verify(await mint(idp.keys.key, { sub: "u-1", email: "ada@x" }))).toEqual({
      ok: true,
      caller: { kind: "oidc", subject: "ada@x" },
    });
    expect(await byEmail.verify(await mint(idp.keys.key, { sub: "u-1" }))).toEqual(
      problem({ kind: "no_subject", claim: "email" }),
    );
    expect(await byEmail.verify(await mint(idp.keys.key, { sub: "u-1", email: 42 }))).toEqual(
      problem({ kind: "no_subject", claim: "email" }),
    );
  });

  it("requires every configured scope, from scope or scp", async () => {
    const scoped = OidcVerifier.from(settings({ requiredScopes: ["a2a.call", "repo"] }));
    expect(
      await scoped.verify(await mint(idp.keys.key, { sub: "a", scope: "repo a2a.call openid" })),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await scoped.verify(await mint(idp.keys.key, { sub: "a", scp: ["a2a.call", "repo"] })),
    ).toMatchObject({
      ok: true,
    });
    expect(await scoped.verify(await mint(idp.keys.key, { sub: "a", scope: "repo" }))).toEqual({
      ok: false,
      reason: { kind: "insufficient_scope", missing: ["a2a.call"] },
    });
    expect(await scoped.verify(await mint(idp.keys.key, { sub: "a" }))).toEqual({
      ok: false,
      reason: { kind: "insufficient_scope", missing: ["a2a.call", "repo"] },
    });
    expect([...grantedScopes({ scope: "a  b", scp: "c" })]).toEqual(["a", "b", "c"]);
  });
});

describe("OIDC key set", () => {
  it("refetches the key set once for an unknown kid, and then knows the new key", async () => {
    const server = await startJwksServer([idp.keys.key.jwk]);
    try {
      const v = OidcVerifier.from(settings({ jwksUrl: server.url }), { cooldownMs: 0 });
      expect(await v.verify(await mint(idp.keys.key))).toMatchObject({ ok: true });
      expect(server.requests()).toBe(1);
      const rotated = await makeKey("key-2");
      server.setKeys([idp.keys.key.jwk, rotated.jwk]);
      expect(await v.verify(await mint(rotated, { sub: "rotated" }))).toEqual({
        ok: true,
        caller: { kind: "oidc", subject: "rotated" },
      });
      expect(server.requests()).toBe(2);
      // Cached now: known keys cost no fetch.
      await v.verify(await mint(rotated));
      await v.verify(await mint(idp.keys.key));
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("is bounded: tokens with unknown kids do not refetch within the cooldown", async () => {
    const server = await startJwksServer([idp.keys.key.jwk]);
    try {
      const v = OidcVerifier.from(settings({ jwksUrl: server.url }));
      expect(await v.verify(await mint(idp.keys.key))).toMatchObject({ ok: true });
      for (let i = 0; i < 5; i++) {
        const verdict = await v.verify(
          await mint(idp.keys.key, { sub: "a" }, { kid: `random-${i}` }),
        );
        expect(verdict).toEqual(problem({ kind: "unknown_key", kid: `random-${i}` }));
      }
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("answers 'unavailable', not 'invalid', when the key set cannot be fetched", async () => {
    const down = OidcVerifier.from(
      settings({ jwksUrl: `http://127.0.0.1:${await freePort()}/jwks` }),
    );
    expect(await down.verify(await mint(idp.keys.key))).toMatchObject({
      ok: false,
      reason: { kind: "unavailable", cause: expect.stringMatching(/fetch failed/) as string },
    });
    const server = await startJwksServer([idp.keys.key.jwk]);
    try {
      server.failWith(500);
      const failing = OidcVerifier.from(settings({ jwksUrl: server.url }));
      expect(await failing.verify(await mint(idp.keys.key))).toMatchObject({
        ok: false,
        reason: { kind: "unavailable", cause: expect.stringMatching(/200 OK/) as string },
      });
      // A malformed token is still the caller's fault, outage or not.
      expect(await failing.verify("abc.def.ghi")).toEqual(problem({ kind: "malformed" }));
    } finally {
      await server.close();
    }
  });

  it("verifies against static keys, which must be public keys that parse", async () => {
    const v = OidcVerifier.from(settings({ jwksUrl: undefined, keys: [idp.keys.key.jwk] }));
    expect(await v.verify(await mint(idp.keys.key, { sub: "s" }))).toEqual({
      ok: true,
      caller: { kind: "oidc", subject: "s" },
    });
    expect(await v.verify(await mint(idp.keys.rsa))).toEqual(
      problem({ kind: "unknown_key", kid: "key-rsa" }),
    );
    const bad = (keys: Record<string, unknown>[]) => () =>
      OidcVerifier.from(settings({ jwksUrl: undefined, keys }));
    expect(bad([{ ...idp.keys.key.jwk, d: "secret" }])).toThrow(AuthConfigError);
    expect(bad([{ ...idp.keys.key.jwk, d: "secret" }])).toThrow(
      /keys\[0\]: a private or symmetric key/,
    );
    expect(
      bad([idp.keys.key.jwk as Record<string, unknown>, { kty: "EC", crv: "P-256", x: "nope" }]),
    ).toThrow(/keys\[1\]: not a usable public key/);
    expect(bad([{ kty: "oct", k: "c2VjcmV0" }])).toThrow(AuthConfigError);
  });

  it("counts what jose does not name as unavailable, never as the caller's fault", () => {
    const expected = {
      issuer: ISSUER,
      audience: [AUDIENCE],
      algorithms: ["ES256"],
      subjectClaim: "sub",
    };
    const header = { alg: "ES256", kid: "k" };
    expect(refusalOf(new KeysUnavailable("timeout"), header, expected)).toEqual({
      kind: "unavailable",
      cause: "timeout",
    });
    expect(refusalOf(new TypeError("boom"), header, expected)).toEqual({
      kind: "unavailable",
      cause: "boom",
    });
  });
});
