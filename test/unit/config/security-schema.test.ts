import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../../src/config/load.js";
import { configSchema } from "../../../src/config/schema.js";
import {
  JWS_ALGORITHMS,
  secretVariables,
  withoutVariables,
} from "../../../src/config/security-schema.js";

const JWK = { kty: "EC", crv: "P-256", x: "x", y: "y" };
const oidc = (o: Record<string, unknown> = {}) => ({
  server: { auth: { oidc: { issuer: "https://idp", audience: "a2a", ...o } } },
});

/** The lines of the config error, or "ok". */
function problems(input: unknown): string {
  try {
    resolveConfig(input, { file: "f.json", startDir: "/work" });
    return "ok";
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.message.split("\n").slice(1).join("\n");
  }
}

describe("server.auth.oidc", () => {
  it("fills its defaults and takes one audience or several", () => {
    const parsed = configSchema.parse(oidc({ jwksUrl: "https://idp/jwks" })).server.auth.oidc;
    expect(parsed).toEqual({
      issuer: "https://idp",
      audience: ["a2a"],
      jwksUrl: "https://idp/jwks",
      algorithms: [...JWS_ALGORITHMS],
      subjectClaim: "sub",
      requiredScopes: [],
      clockToleranceSeconds: 30,
    });
    expect(
      configSchema.parse(oidc({ keys: [JWK], audience: ["a", "b"] })).server.auth.oidc?.audience,
    ).toEqual(["a", "b"]);
    expect(configSchema.parse({}).server.auth.oidc).toBeUndefined();
  });

  it("takes plain http only for a key set on this machine", () => {
    for (const url of ["http://127.0.0.1:9/jwks", "http://localhost/jwks", "http://[::1]:8/k"]) {
      expect(problems(oidc({ jwksUrl: url }))).toBe("ok");
    }
    expect(problems(oidc({ jwksUrl: "http://idp.example/jwks" }))).toBe(
      '  - server.auth.oidc.jwksUrl: expected an https:// URL (plain http:// only to 127.0.0.1, [::1] or localhost), got "http://idp.example/jwks"',
    );
  });

  it.each<[string, unknown, RegExp]>([
    ["neither jwksUrl nor keys", oidc(), /set exactly one of jwksUrl .* and keys/],
    ["both", oidc({ jwksUrl: "https://idp/jwks", keys: [JWK] }), /set exactly one of jwksUrl/],
    ["a private JWK", oidc({ keys: [{ ...JWK, d: "s" }] }), /keys\[0\]: a private key/],
    ["a symmetric JWK", oidc({ keys: [{ kty: "oct", k: "s" }] }), /keys\[0\]\.kty: expected "kty"/],
    ["alg none", oidc({ keys: [JWK], algorithms: ["none"] }), /HS\* and none are never accepted/],
    [
      "an HMAC alg",
      oidc({ keys: [JWK], algorithms: ["HS256"] }),
      /algorithms\[0\]: expected one of RS256/,
    ],
    ["no algorithm", oidc({ keys: [JWK], algorithms: [] }), /at least one algorithm/],
    ["no audience", oidc({ keys: [JWK], audience: [] }), /at least one audience/],
    ["an unknown key", oidc({ keys: [JWK], issuers: ["x"] }), /unknown key/],
    ["a negative tolerance", oidc({ keys: [JWK], clockToleranceSeconds: -1 }), /between 0 and 300/],
  ])("refuses %s, saying what is expected", (_label, input, expected) => {
    expect(problems(input)).toMatch(expected);
  });
});

describe("server.operators", () => {
  const TOKENS = [
    { name: "ops", env: "OPS" },
    { name: "ci", env: "CI" },
  ];
  /** `server` with the tokens, these operators, and `extra` (its `auth` merged). */
  const withOperators = (operators: string[], extra: { auth?: object; server?: object } = {}) => ({
    server: { auth: { tokens: TOKENS, ...extra.auth }, operators, ...extra.server },
  });

  it("defaults to none and takes token names, allowed logins and oidc subjects", () => {
    expect(configSchema.parse({}).server.operators).toEqual([]);
    expect(problems(withOperators(["ops"]))).toBe("ok");
    expect(
      problems(
        withOperators(["ada@example.com"], { server: { allowedLogins: ["ada@example.com"] } }),
      ),
    ).toBe("ok");
    expect(
      problems(withOperators(["oidc:u-1"], oidc({ jwksUrl: "https://idp/jwks" }).server)),
    ).toBe("ok");
  });

  it.each<[string, unknown, string]>([
    [
      "a name no token or login has (a typo)",
      withOperators(["opz"]),
      '  - server.operators[0]: expected the name of a token in server.auth.tokens, a login in server.allowedLogins, or "oidc:<subject>", got "opz"',
    ],
    [
      "a login that allowedLogins does not list",
      withOperators(["ada@example.com"]),
      '  - server.operators[0]: expected the name of a token in server.auth.tokens, a login in server.allowedLogins, or "oidc:<subject>", got "ada@example.com"',
    ],
    [
      "an oidc subject without server.auth.oidc",
      withOperators(["ops", "oidc:u-1"]),
      '  - server.operators[1]: expected server.auth.oidc to be set for an "oidc:" operator, got "oidc:u-1"',
    ],
    [
      "an oidc entry without a subject",
      withOperators(["oidc:"], oidc({ jwksUrl: "https://idp/jwks" }).server),
      '  - server.operators[0]: expected "oidc:<subject>" with a subject after the colon, got "oidc:"',
    ],
    [
      "a name that is a token's and an allowed login's",
      withOperators(["ci"], { server: { allowedLogins: ["ci"] } }),
      '  - server.operators[0]: expected one caller, but a token and an allowed login both have this name (rename the token), got "ci"',
    ],
    [
      "the same name twice",
      withOperators(["ops", "ops"]),
      "  - server.operators: operator names must be unique, got an array",
    ],
  ])("refuses %s", (_name, input, expected) => {
    expect(problems(input)).toBe(expected);
  });
});

describe("agentCard.signing", () => {
  const signing = (o: Record<string, unknown>) => ({ agentCard: { signing: { kid: "k1", ...o } } });

  it("takes a key file (absolute) or an environment variable, a kid and an optional jku", () => {
    expect(
      configSchema.parse(signing({ privateKeyFile: "/etc/a2a/card.pem" })).agentCard.signing,
    ).toEqual({
      kid: "k1",
      privateKeyFile: "/etc/a2a/card.pem",
    });
    expect(
      configSchema.parse(
        signing({ privateKeyEnv: "CARD_KEY", jku: "https://x/jwks.json", algorithm: "PS256" }),
      ).agentCard.signing,
    ).toEqual({
      kid: "k1",
      privateKeyEnv: "CARD_KEY",
      jku: "https://x/jwks.json",
      algorithm: "PS256",
    });
  });

  it.each<[string, unknown, RegExp]>([
    ["no key", signing({}), /set exactly one of privateKeyFile .* and privateKeyEnv/],
    ["both", signing({ privateKeyFile: "/k", privateKeyEnv: "K" }), /set exactly one of/],
    ["a relative path", signing({ privateKeyFile: "card.pem" }), /expected an absolute path/],
    ["a bad variable name", signing({ privateKeyEnv: "NOT A NAME" }), /environment variable name/],
    ["no kid", { agentCard: { signing: { privateKeyEnv: "K" } } }, /kid: required key is missing/],
    ["HS256", signing({ privateKeyEnv: "K", algorithm: "HS256" }), /never accepted/],
  ])("refuses %s", (_label, input, expected) => {
    expect(problems(input)).toMatch(expected);
  });
});

describe("secrets kept from Claude's environment", () => {
  it("lists the token and card-key variables, and drops only those", () => {
    const config = configSchema.parse({
      server: {
        auth: {
          tokens: [
            { name: "a", env: "TOKEN_A" },
            { name: "b", sha256: "a".repeat(64) },
          ],
        },
      },
      agentCard: { signing: { kid: "k", privateKeyEnv: "CARD_KEY" } },
    });
    expect(secretVariables(config)).toEqual(["TOKEN_A", "CARD_KEY"]);
    const env = { PATH: "/bin", TOKEN_A: "t", CARD_KEY: "pem" };
    expect(withoutVariables(env, secretVariables(config))).toEqual({ PATH: "/bin" });
    expect(env.TOKEN_A).toBe("t");
    expect(withoutVariables(env, ["OTHER"])).toBe(env);
  });
});
