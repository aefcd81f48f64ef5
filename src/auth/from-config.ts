import type { Config } from "../config/schema.js";
import { Authenticator } from "./decide.js";
import { OidcVerifier, type JwksCacheOptions } from "./oidc.js";
import { StaticTokenVerifier } from "./static-tokens.js";
import { CombinedVerifier } from "./verifier.js";

/**
 * The authentication `server.auth` and `server.allowedLogins` configure, read now: an `env` token
 * whose variable is unset, or an OIDC key that does not parse, throws AuthConfigError.
 */
export function authenticatorFrom(
  server: Pick<Config["server"], "auth" | "allowedLogins">,
  env: NodeJS.ProcessEnv = process.env,
  jwks: JwksCacheOptions = {},
): Authenticator {
  const tokens = StaticTokenVerifier.from(server.auth.tokens, env);
  const oidc =
    server.auth.oidc === undefined ? undefined : OidcVerifier.from(server.auth.oidc, jwks);
  return new Authenticator({
    verifier: new CombinedVerifier(tokens, oidc),
    allowedLogins: server.allowedLogins,
  });
}
