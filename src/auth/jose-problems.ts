import { errors } from "jose";
import type { TokenProblem, TokenRefusal } from "./refusal.js";

/** The key set could not be fetched or read (network, timeout, not a JWKS): not the token's fault. */
export class KeysUnavailable extends Error {}

/** What the token's header says, cleaned for a message (it is the caller's text). */
export interface SeenHeader {
  readonly alg: string | undefined;
  readonly kid: string | undefined;
}

/** Printable ASCII, at most 64 characters: a token's header values go into texts and headers. */
export function cleanValue(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return value.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
}

export interface Expectations {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly algorithms: readonly string[];
  readonly subjectClaim: string;
}

const invalid = (problem: TokenProblem): TokenRefusal => ({ kind: "invalid_token", problem });

/**
 * The refusal for what `jose.jwtVerify` threw. Anything it does not name (a bug, a key the
 * provider published that cannot be imported) counts as "keys unavailable": logged with its
 * cause, never blamed on the caller. Pure.
 */
export function refusalOf(err: unknown, header: SeenHeader, expected: Expectations): TokenRefusal {
  if (err instanceof KeysUnavailable) return { kind: "unavailable", cause: err.message };
  if (err instanceof errors.JWTExpired) return invalid({ kind: "expired" });
  if (err instanceof errors.JWTClaimValidationFailed) {
    switch (err.claim) {
      case "iss":
        return invalid({ kind: "wrong_issuer", expected: expected.issuer });
      case "aud":
        return invalid({ kind: "wrong_audience", expected: expected.audience });
      case "nbf":
        return invalid({ kind: "not_yet_valid" });
      case expected.subjectClaim:
        return invalid({ kind: "no_subject", claim: expected.subjectClaim });
      default:
        return invalid({ kind: "claim", claim: cleanValue(err.claim) ?? "?" });
    }
  }
  const alg = header.alg ?? "(none)";
  if (err instanceof errors.JOSEAlgNotAllowed) {
    return invalid({ kind: "algorithm", alg, accepted: expected.algorithms });
  }
  if (err instanceof errors.JOSENotSupported) {
    return expected.algorithms.includes(alg)
      ? invalid({ kind: "malformed" })
      : invalid({ kind: "algorithm", alg, accepted: expected.algorithms });
  }
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid({ kind: "unknown_key", kid: header.kid });
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return invalid({ kind: "bad_signature" });
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) {
    return invalid({ kind: "malformed" });
  }
  return { kind: "unavailable", cause: err instanceof Error ? err.message : String(err) };
}
