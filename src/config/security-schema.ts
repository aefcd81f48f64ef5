import { isAbsolute } from "node:path";
import { z } from "zod";
import { OIDC_OPERATOR_PREFIX } from "../identity/operators.js";
import { httpUrl, intBetween, name, names } from "./schema-parts.js";
import { triggerSecretVariables, type TriggersConfig } from "./triggers-schema.js";

/**
 * The security keys of the config: `server.auth` (static tokens, OpenID Connect) and
 * `agentCard.signing`.
 */

/** Asymmetric JWS algorithms: `none` and the HMAC ones (a shared secret) are never accepted. */
export const JWS_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envName = () =>
  z
    .string({ error: "expected an environment variable name" })
    .regex(ENV_NAME, { error: "expected an environment variable name" });

const algorithm = () =>
  z.enum(JWS_ALGORITHMS, {
    error: `expected one of ${JWS_ALGORITHMS.join(", ")} (HS* and none are never accepted)`,
  });

const TOKEN_ERROR =
  'expected { "name", "sha256" } (hex SHA-256 of the token) or { "name", "env" } (the ' +
  "environment variable holding it); a plain token is never accepted in the file";
const tokenSchema = z
  .strictObject(
    {
      name: name().describe("Who holds the token: the caller's name in scoping and logs."),
      sha256: z
        .string({ error: "expected a hex SHA-256 digest" })
        .regex(/^[0-9a-fA-F]{64}$/, { error: "expected 64 hex digits (SHA-256 of the token)" })
        .transform((v) => v.toLowerCase())
        .optional()
        .describe("Hex SHA-256 digest of the token (e.g. `printf %s TOKEN | sha256sum`)."),
      env: envName()
        .optional()
        .describe("Environment variable that holds the token, read at startup."),
    },
    { error: TOKEN_ERROR },
  )
  .refine((t) => (t.sha256 === undefined) !== (t.env === undefined), { error: TOKEN_ERROR });

const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;
const JWKS_URL_ERROR =
  "expected an https:// URL (plain http:// only to 127.0.0.1, [::1] or localhost)";
/** A key set fetched over plain HTTP could be swapped on the way: https, or this machine. */
const jwksUrl = () =>
  z.url({ protocol: /^https?$/, error: JWKS_URL_ERROR }).refine(
    (url) => {
      const u = new URL(url);
      return u.protocol === "https:" || LOOPBACK_HOST.test(u.hostname);
    },
    { error: JWKS_URL_ERROR },
  );

const publicJwk = z
  .looseObject({
    kty: z.enum(["RSA", "EC", "OKP"], {
      error: 'expected "kty" to be "RSA", "EC" or "OKP" (a public signing key)',
    }),
  })
  .refine((key) => !("d" in key), {
    error: "a private key: give only the identity provider's public keys",
  });

const OIDC_KEYS_ERROR = "set exactly one of jwksUrl (the provider's key set) and keys";
const oidcSchema = z
  .strictObject({
    issuer: name().describe(
      "Expected `iss` of every token, exactly as the identity provider writes it.",
    ),
    audience: z
      .union([name(), z.array(name()).min(1, { error: "expected at least one audience" })], {
        error: "expected a string or an array of strings",
      })
      .transform((v) => (typeof v === "string" ? [v] : v))
      .describe("Expected `aud`: a string or a list; a token must name it (or one of them)."),
    jwksUrl: jwksUrl()
      .optional()
      .describe(
        "Exactly one of jwksUrl and keys. The identity provider's JWKS (its `jwks_uri`): " +
          "https:// (plain http:// only to 127.0.0.1, [::1] or localhost); fetched at the first " +
          "token, cached, refetched when a token names an unknown key (at most every 30 s).",
      ),
    keys: z
      .array(publicJwk, { error: "expected an array of public JWKs" })
      .min(1, { error: "expected at least one key" })
      .optional()
      .describe(
        "The provider's public keys as JWKs (kty RSA, EC or OKP), instead of jwksUrl; a " +
          "private or symmetric key is refused.",
      ),
    algorithms: z
      .array(algorithm(), { error: "expected an array of algorithms" })
      .min(1, { error: "expected at least one algorithm" })
      .default([...JWS_ALGORITHMS])
      .describe(
        "Accepted signing algorithms, of RS256…RS512, PS256…PS512, ES256, ES384, ES512 and " +
          "EdDSA; none and HS* are never accepted. Default: every asymmetric one.",
      ),
    subjectClaim: name()
      .default("sub")
      .describe("The claim that names the caller (its scope is `oidc:<value>`)."),
    requiredScopes: names()
      .default([])
      .describe(
        "Scopes every token must grant (its `scope` claim, space-separated, or `scp`); a token " +
          "without them is answered 403 insufficient_scope.",
      ),
    clockToleranceSeconds: intBetween(0, 300)
      .default(30)
      .describe("Clock skew forgiven when checking `exp` and `nbf` (seconds, 0–300)."),
  })
  .refine((o) => (o.jwksUrl === undefined) !== (o.keys === undefined), {
    error: OIDC_KEYS_ERROR,
  });

export const authSchema = z.strictObject({
  tokens: z
    .array(tokenSchema, { error: "expected an array of tokens" })
    .default([])
    .refine((tokens) => new Set(tokens.map((t) => t.name)).size === tokens.length, {
      error: "token names must be unique",
    })
    .describe(
      "Bearer tokens, each { name, sha256 } or { name, env }: never the token itself. When set, " +
        "every A2A call and /metrics need `Authorization: Bearer <token>` of one of them. " +
        "Default: `[]`, none.",
    ),
  oidc: oidcSchema
    .optional()
    .describe(
      "OpenID Connect: a request may carry a JWT from this identity provider instead of a " +
        "static token. Unset: off.",
    ),
});

export const operatorsSchema = names()
  .default([])
  .refine((entries) => new Set(entries).size === entries.length, {
    error: "operator names must be unique",
  })
  .describe(
    "Callers with the operator role: they see, answer and cancel every caller's tasks. Each " +
      'entry is a token name (server.auth.tokens), a login of server.allowedLogins, or "oidc:' +
      '<subject>" (an OpenID Connect caller); an entry naming none of them stops startup.',
  );

/** One `server.operators` entry the rest of the config does not back, and why. */
export interface OperatorProblem {
  readonly index: number;
  readonly message: string;
}

/**
 * The `server.operators` entries that name no caller this config lets in (a typo would grant the
 * role to nobody now and, silently, to whoever later gets a token of that name), or two callers
 * at once (a token and a login of the same name). Pure.
 */
export function operatorProblems(server: {
  readonly operators: readonly string[];
  readonly allowedLogins?: readonly string[] | undefined;
  readonly auth: {
    readonly tokens: readonly { readonly name: string }[];
    readonly oidc?: unknown;
  };
}): OperatorProblem[] {
  const tokens = new Set(server.auth.tokens.map((t) => t.name));
  const logins = new Set(server.allowedLogins ?? []);
  const problems: OperatorProblem[] = [];
  server.operators.forEach((entry, index) => {
    const message = operatorProblem(entry, tokens, logins, server.auth.oidc !== undefined);
    if (message !== undefined) problems.push({ index, message });
  });
  return problems;
}

/** `operatorProblems` as issues of the `server` object (its `superRefine`). */
export function operatorIssues(
  server: Parameters<typeof operatorProblems>[0],
  ctx: z.RefinementCtx,
): void {
  for (const { index, message } of operatorProblems(server)) {
    ctx.addIssue({
      code: "custom",
      path: ["operators", index],
      input: server.operators[index],
      message,
    });
  }
}

function operatorProblem(
  entry: string,
  tokens: ReadonlySet<string>,
  logins: ReadonlySet<string>,
  oidc: boolean,
): string | undefined {
  if (entry.startsWith(OIDC_OPERATOR_PREFIX)) {
    if (entry.length === OIDC_OPERATOR_PREFIX.length) {
      return 'expected "oidc:<subject>" with a subject after the colon';
    }
    return oidc ? undefined : 'expected server.auth.oidc to be set for an "oidc:" operator';
  }
  if (tokens.has(entry) && logins.has(entry)) {
    return "expected one caller, but a token and an allowed login both have this name (rename the token)";
  }
  if (tokens.has(entry) || logins.has(entry)) return undefined;
  return 'expected the name of a token in server.auth.tokens, a login in server.allowedLogins, or "oidc:<subject>"';
}

const SIGNING_KEY_ERROR =
  "set exactly one of privateKeyFile (an absolute path) and privateKeyEnv (a variable name)";
export const signingSchema = z
  .strictObject({
    privateKeyFile: name()
      .refine(isAbsolute, { error: "expected an absolute path" })
      .optional()
      .describe(
        "Exactly one of privateKeyFile and privateKeyEnv. Absolute path of the private key " +
          "(PEM or JWK): EC P-256/P-384/P-521, RSA of 2048 bits or more, or Ed25519. Refused " +
          "inside the workspace, where Claude could read it.",
      ),
    privateKeyEnv: envName()
      .optional()
      .describe(
        "Environment variable holding the private key (PEM, with \\n escapes allowed, or JWK), " +
          "read at startup and kept out of Claude's environment.",
      ),
    kid: name().describe("Key id, in each signature's protected header (`kid`)."),
    jku: httpUrl()
      .optional()
      .describe("URL of the JWKS that holds the public key, in the protected header (`jku`)."),
    algorithm: algorithm()
      .optional()
      .describe(
        "Signing algorithm: ES256/ES384/ES512 for EC, RS256 (or RS384, RS512, PS256…) for RSA, " +
          "EdDSA for Ed25519; one that does not fit the key stops startup. Default: by key type " +
          "(EC P-256 ES256, P-384 ES384, P-521 ES512, RSA RS256, Ed25519 EdDSA).",
      ),
  })
  .refine((s) => (s.privateKeyFile === undefined) !== (s.privateKeyEnv === undefined), {
    error: SIGNING_KEY_ERROR,
  });

/**
 * The environment variables that hold this server's secrets (token values, the card's private
 * key): kept out of the Claude Code children's environment, where a caller could ask for them.
 */
export function secretVariables(config: {
  server: { auth: { tokens: readonly { env?: string | undefined }[] } };
  agentCard: { signing?: { privateKeyEnv?: string | undefined } | undefined };
  peers?: {
    agents: Readonly<Record<string, { auth: "none" | { tokenEnv: string } }>>;
    workspaceAuth: "none" | { tokenEnv: string };
  };
  /** A trigger's secret, push token and forge token (docs/triggers.md): the server's own. */
  triggers?: TriggersConfig;
}): string[] {
  // The peers' tokens too (docs/peers.md): Claude reaches a peer through the tools, never by them.
  const peerAuths = config.peers
    ? [...Object.values(config.peers.agents).map((p) => p.auth), config.peers.workspaceAuth]
    : [];
  return [
    ...triggerSecretVariables(config.triggers ?? {}),
    ...peerAuths.flatMap((a) => (a === "none" ? [] : [a.tokenEnv])),
    ...config.server.auth.tokens.flatMap((t) => (t.env === undefined ? [] : [t.env])),
    ...(config.agentCard.signing?.privateKeyEnv === undefined
      ? []
      : [config.agentCard.signing.privateKeyEnv]),
  ];
}

/** `env` without `names`; the same object when there is nothing to drop. */
export function withoutVariables<T extends Record<string, string | undefined>>(
  env: T,
  names: readonly string[],
): T {
  if (!names.some((n) => n in env)) return env;
  const copy = { ...env };
  for (const n of names) delete copy[n];
  return copy;
}
