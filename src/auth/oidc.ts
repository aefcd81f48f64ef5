import { createPublicKey } from "node:crypto";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { cleanValue, KeysUnavailable, refusalOf, type SeenHeader } from "./jose-problems.js";
import { AuthConfigError, refused, type BearerVerifier, type Verdict } from "./verifier.js";

/** `server.auth.oidc`, as the schema leaves it. */
export interface OidcSettings {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly jwksUrl?: string | undefined;
  readonly keys?: readonly Record<string, unknown>[] | undefined;
  readonly algorithms: readonly string[];
  readonly subjectClaim: string;
  readonly requiredScopes: readonly string[];
  readonly clockToleranceSeconds: number;
}

/** How the remote key set is cached (jose's defaults unless a test says otherwise). */
export interface JwksCacheOptions {
  /** After a fetch, a token with an unknown `kid` refetches only once this has passed (30 s). */
  readonly cooldownMs?: number;
  /** A fetch taking longer fails (5 s). */
  readonly timeoutMs?: number;
  /** Keys older than this are refetched before use (10 min). */
  readonly cacheMaxAgeMs?: number;
}

/** The scopes a token grants: `scope` (RFC 9068, space-separated) and `scp` (string or list). */
export function grantedScopes(payload: JWTPayload): Set<string> {
  const granted = new Set<string>();
  for (const value of [payload.scope, payload.scp]) {
    const list = typeof value === "string" ? value.split(" ") : Array.isArray(value) ? value : [];
    for (const scope of list) if (typeof scope === "string" && scope !== "") granted.add(scope);
  }
  return granted;
}

/** Public keys only, each one that parses: a private key in the config file is a leaked secret. */
function checkStaticKeys(keys: readonly Record<string, unknown>[]): JWK[] {
  return keys.map((key, i) => {
    const where = `server.auth.oidc.keys[${i}]`;
    if ("d" in key || key.kty === "oct") {
      throw new AuthConfigError(
        `${where}: a private or symmetric key; give only the identity provider's public keys`,
      );
    }
    try {
      createPublicKey({ key: key as JWK & { kty: string }, format: "jwk" });
    } catch (err) {
      throw new AuthConfigError(`${where}: not a usable public key: ${(err as Error).message}`);
    }
    return key;
  });
}

/** Turns a failed fetch of the key set into KeysUnavailable; a missing key stays what it is. */
function guarded(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await getKey(header, token);
    } catch (err) {
      if (
        err instanceof errors.JWKSNoMatchingKey ||
        err instanceof errors.JWKSMultipleMatchingKeys ||
        err instanceof errors.JOSENotSupported
      ) {
        throw err;
      }
      const cause = (err as { cause?: { message?: unknown } }).cause?.message;
      throw new KeysUnavailable(
        `${(err as Error).message}${typeof cause === "string" ? ` (${cause})` : ""}`,
        { cause: err },
      );
    }
  };
}

/**
 * OpenID Connect access or ID tokens: a JWT signed by one of the identity provider's keys (its
 * JWKS, fetched and cached; or keys given in the config), from the configured issuer, for one of
 * the configured audiences, unexpired, carrying the claim that names the caller and every
 * required scope. The caller is that claim's value. Crypto is `jose`'s.
 */
export class OidcVerifier implements BearerVerifier {
  readonly required = true;

  private constructor(
    private readonly settings: OidcSettings,
    private readonly getKey: JWTVerifyGetKey,
  ) {}

  /** Checks static keys now; a remote key set is fetched at the first token. */
  static from(settings: OidcSettings, cache: JwksCacheOptions = {}): OidcVerifier {
    if (settings.keys !== undefined) {
      const keys = checkStaticKeys(settings.keys);
      return new OidcVerifier(settings, guarded(createLocalJWKSet({ keys })));
    }
    if (settings.jwksUrl === undefined) {
      throw new AuthConfigError("server.auth.oidc: set jwksUrl or keys");
    }
    const remote = createRemoteJWKSet(new URL(settings.jwksUrl), {
      ...(cache.cooldownMs !== undefined && { cooldownDuration: cache.cooldownMs }),
      ...(cache.timeoutMs !== undefined && { timeoutDuration: cache.timeoutMs }),
      ...(cache.cacheMaxAgeMs !== undefined && { cacheMaxAge: cache.cacheMaxAgeMs }),
    });
    return new OidcVerifier(settings, guarded(remote));
  }

  async verify(token: string): Promise<Verdict> {
    const s = this.settings;
    let header: SeenHeader;
    try {
      const h = decodeProtectedHeader(token);
      header = { alg: cleanValue(h.alg), kid: cleanValue(h.kid) };
    } catch {
      return refused({ kind: "invalid_token", problem: { kind: "malformed" } });
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.getKey, {
        issuer: s.issuer,
        audience: [...s.audience],
        algorithms: [...s.algorithms],
        clockTolerance: s.clockToleranceSeconds,
        // A token without `exp` would be good forever.
        requiredClaims: ["exp", s.subjectClaim],
      }));
    } catch (err) {
      return refused(refusalOf(err, header, s));
    }
    const subject = payload[s.subjectClaim];
    if (typeof subject !== "string" || subject === "") {
      return refused({
        kind: "invalid_token",
        problem: { kind: "no_subject", claim: s.subjectClaim },
      });
    }
    const granted = grantedScopes(payload);
    const missing = s.requiredScopes.filter((scope) => !granted.has(scope));
    if (missing.length > 0) return refused({ kind: "insufficient_scope", missing });
    return { ok: true, caller: { kind: "oidc", subject } };
  }
}
