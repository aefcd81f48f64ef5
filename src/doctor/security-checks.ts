import { createPublicKey } from "node:crypto";
import { CardSigningError, loadSigningKey } from "../a2a/card/signing.js";
import { OidcVerifier } from "../auth/oidc.js";
import { AuthConfigError } from "../auth/verifier.js";
import type { Config } from "../config/schema.js";
import type { CheckResult } from "./check-result.js";

/** How long `--check` waits for the identity provider's key set. */
const JWKS_TIMEOUT_MS = 5_000;

/** How many of a JWKS document's keys parse as public keys; throws saying what is wrong. */
export function usableKeys(document: unknown): number {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('not a JWKS (no "keys" array)');
  let usable = 0;
  for (const key of keys as unknown[]) {
    try {
      createPublicKey({ key: key as never, format: "jwk" });
      usable++;
    } catch {
      // A key of a kind jose cannot use either (or an encryption key): not counted.
    }
  }
  if (usable === 0) throw new Error(`none of its ${keys.length} key(s) is a usable public key`);
  return usable;
}

/**
 * `server.auth.oidc`: static keys must parse (required); a JWKS URL is fetched once and its
 * keys parsed, so an unreachable provider shows up before the first caller does. No line when
 * OIDC is off.
 */
export async function checkOidc(
  server: Config["server"],
  fetchImpl: typeof fetch = fetch,
): Promise<CheckResult[]> {
  const oidc = server.auth.oidc;
  if (oidc === undefined) return [];
  const name = "oidc";
  try {
    OidcVerifier.from(oidc);
  } catch (err) {
    if (!(err instanceof AuthConfigError)) throw err;
    return [
      {
        name,
        ok: false,
        detail: err.message,
        fix: "give the identity provider's public signing keys as JWKs, or its jwksUrl",
      },
    ];
  }
  if (oidc.jwksUrl === undefined) {
    const detail = `issuer ${oidc.issuer}, ${oidc.keys?.length ?? 0} static key(s)`;
    return [{ name, ok: true, detail }];
  }
  try {
    const res = await fetchImpl(oidc.jwksUrl, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const keys = usableKeys(await res.json());
    return [{ name, ok: true, detail: `issuer ${oidc.issuer}, ${keys} key(s) at ${oidc.jwksUrl}` }];
  } catch (err) {
    const cause = (err as { cause?: { message?: unknown } }).cause?.message;
    const why = `${(err as Error).message}${typeof cause === "string" ? ` (${cause})` : ""}`;
    return [
      {
        name,
        ok: false,
        detail: `the key set at ${oidc.jwksUrl} cannot be used: ${why}`,
        fix: "check server.auth.oidc.jwksUrl (the provider's jwks_uri) and that this machine reaches it",
      },
    ];
  }
}

/** `agentCard.signing`: the key is read and parsed as at startup. No line when signing is off. */
export async function checkSigning(
  config: Pick<Config, "agentCard" | "claude">,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CheckResult[]> {
  const signing = config.agentCard.signing;
  if (signing === undefined) return [];
  try {
    const key = await loadSigningKey(signing, config.claude.cwd, env);
    return [{ name: "card signing", ok: true, detail: `${key.header.alg}, kid ${key.header.kid}` }];
  } catch (err) {
    if (!(err instanceof CardSigningError)) throw err;
    return [
      {
        name: "card signing",
        ok: false,
        detail: err.message,
        fix: "point agentCard.signing at an EC, RSA or Ed25519 private key (PEM or JWK)",
      },
    ];
  }
}
