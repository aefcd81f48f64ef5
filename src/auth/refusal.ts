import type { AuthRefusal } from "../contract/auth-messages.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/**
 * Why a request is not let in: the kinds are the contract's (`contract/auth-messages.ts`, with
 * their texts); the HTTP gate and the gRPC binding each turn one into their own status, and
 * `refusalStatus` says which HTTP one.
 */
export type { AuthRefusal, TokenProblem, TokenRefusal } from "../contract/auth-messages.js";

type RefusalStatus =
  | typeof HTTP_STATUS.UNAUTHORIZED
  | typeof HTTP_STATUS.FORBIDDEN
  | typeof HTTP_STATUS.SERVICE_UNAVAILABLE;

/** The HTTP status of a refusal (RFC 6750 §3.1 for the token ones). Pure. */
export function refusalStatus(refusal: AuthRefusal): RefusalStatus {
  switch (refusal.kind) {
    case "missing":
    case "invalid_token":
      return HTTP_STATUS.UNAUTHORIZED;
    case "login_forbidden":
    case "insufficient_scope":
      return HTTP_STATUS.FORBIDDEN;
    case "unavailable":
      return HTTP_STATUS.SERVICE_UNAVAILABLE;
  }
}
