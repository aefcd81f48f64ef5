/**
 * Authentication, shared by every binding (no Express, no binding imported: the lint holds it):
 * who a request is from, or why it is refused. A binding builds nothing itself: it calls the one
 * `Authenticator` the server makes from the config (`authenticatorFrom`) with the request's
 * `Authorization` (HTTP header, gRPC metadata) and, where a trusted proxy asserts one, its login;
 * it maps a refusal to its own status (`refusalStatus` for HTTP) and answers with
 * `refusalMessage` (contract/auth-messages.ts).
 *
 * Verifiers: static tokens (`static-tokens.ts`), OpenID Connect (`oidc.ts`, jose), one combined
 * verifier (`verifier.ts`); `decideAuth` (`decide.ts`) is the pure decision over their verdict.
 */
export {
  Authenticator,
  bearerToken,
  decideAuth,
  type AuthDecision,
  type AuthFacts,
  type AuthInput,
  type AuthPolicy,
} from "./decide.js";
export { authenticatorFrom } from "./from-config.js";
export { OidcVerifier, type JwksCacheOptions, type OidcSettings } from "./oidc.js";
export {
  refusalStatus,
  type AuthRefusal,
  type TokenProblem,
  type TokenRefusal,
} from "./refusal.js";
export { StaticTokenVerifier, type TokenSpec } from "./static-tokens.js";
export {
  AuthConfigError,
  CombinedVerifier,
  type BearerVerifier,
  type Verdict,
} from "./verifier.js";
