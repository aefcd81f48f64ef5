/**
 * Why a request is refused before any handler runs, and what the caller is told (the JSON body's
 * `message`, and the `error_description` of `WWW-Authenticate`). src/auth/ decides; docs/security.md's
 * Security section quotes these texts.
 */

/** What is wrong with a presented bearer token. */
export type TokenProblem =
  /** Matches no configured token (and is not a JWT the OIDC verifier could check). */
  | { readonly kind: "unknown" }
  /** The `Authorization` header is not `Bearer <token>`. */
  | { readonly kind: "not_bearer" }
  /** Not a JWT (three base64url parts with a JSON header). */
  | { readonly kind: "malformed" }
  | { readonly kind: "expired" }
  | { readonly kind: "not_yet_valid" }
  | { readonly kind: "wrong_issuer"; readonly expected: string }
  | { readonly kind: "wrong_audience"; readonly expected: readonly string[] }
  /** Signed with an algorithm not accepted (`none` included). */
  | { readonly kind: "algorithm"; readonly alg: string; readonly accepted: readonly string[] }
  /** No published key has this `kid` (after a refresh of the key set, when allowed). */
  | { readonly kind: "unknown_key"; readonly kid: string | undefined }
  | { readonly kind: "bad_signature" }
  /** A registered claim is missing or not valid (`exp` is required). */
  | { readonly kind: "claim"; readonly claim: string }
  /** The claim that names the caller is missing or not a non-empty string. */
  | { readonly kind: "no_subject"; readonly claim: string };

/** What verifying a presented token can refuse. */
export type TokenRefusal =
  | { readonly kind: "invalid_token"; readonly problem: TokenProblem }
  | { readonly kind: "insufficient_scope"; readonly missing: readonly string[] }
  /** The keys to check it could not be fetched: not the caller's fault. `cause` is for the log. */
  | { readonly kind: "unavailable"; readonly cause: string };

export type AuthRefusal =
  /** Nothing presented where a token (or an allowed login) is required. */
  | { readonly kind: "missing" }
  /** `server.allowedLogins` is set and the request has no listed login. */
  | { readonly kind: "login_forbidden" }
  | TokenRefusal;

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/** What is wrong with the token, for the caller (JSON body and `error_description`). */
export function tokenProblemMessage(problem: TokenProblem): string {
  switch (problem.kind) {
    case "unknown":
      return "The bearer token is not valid.";
    case "not_bearer":
      return "The Authorization header is not of the form: Bearer <token>.";
    case "malformed":
      return "The bearer token is not a well-formed JWT.";
    case "expired":
      return "The token has expired.";
    case "not_yet_valid":
      return "The token is not valid yet (nbf).";
    case "wrong_issuer":
      return `The token was not issued by the identity provider this agent trusts (expected issuer "${problem.expected}").`;
    case "wrong_audience":
      return `The token is not meant for this agent (expected audience ${quoted(problem.expected)}).`;
    case "algorithm":
      return `The token's signing algorithm "${problem.alg}" is not accepted (accepted: ${problem.accepted.join(", ")}).`;
    case "unknown_key":
      return problem.kid === undefined
        ? "The token names no key (kid) and no single published key matches it."
        : `The token is signed with a key the identity provider does not publish (kid "${problem.kid}").`;
    case "bad_signature":
      return "The token's signature does not verify.";
    case "claim":
      return `The token's "${problem.claim}" claim is missing or not valid.`;
    case "no_subject":
      return `The token has no "${problem.claim}" claim naming the caller.`;
  }
}

/** The message of a refused request's answer. */
export function refusalMessage(refusal: AuthRefusal): string {
  switch (refusal.kind) {
    case "missing":
      return "This agent requires Authorization: Bearer <token>.";
    case "login_forbidden":
      return "This login may not call the agent.";
    case "invalid_token":
      return tokenProblemMessage(refusal.problem);
    case "insufficient_scope":
      return `The token lacks the scope this agent requires: ${refusal.missing.join(" ")}.`;
    case "unavailable":
      return "The token cannot be checked right now: the identity provider's keys could not be fetched. Try again later.";
  }
}
