import type { AuthRefusal } from "../contract/auth-messages.js";

/**
 * Why a request is not let in: the kinds are the contract's (`contract/auth-messages.ts`, with
 * their texts); the HTTP gate and the gRPC binding each turn one into their own status, and
 * `refusalStatus` says which HTTP one.
 */
export type { AuthRefusal, TokenProblem, TokenRefusal } from "../contract/auth-messages.js";

/** The HTTP status of a refusal (RFC 6750 §3.1 for the token ones). Pure. */
export function refusalStatus(refusal: AuthRefusal): 401 | 403 | 503 {
  switch (refusal.kind) {
    case "missing":
    case "invalid_token":
      return 401;
    case "login_forbidden":
    case "insufficient_scope":
      return 403;
    case "unavailable":
      return 503;
  }
}
