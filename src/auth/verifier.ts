import type { Caller } from "../identity/caller.js";
import type { TokenRefusal } from "./refusal.js";
import { refuse, type Refusal } from "../common/refusal.js";

/** What checking one presented bearer token found. */
export type Verdict = { readonly ok: true; readonly caller: Caller } | Refusal<TokenRefusal>;

/**
 * Checks bearer tokens. Static tokens and OpenID Connect are implementations; the HTTP gate and
 * the gRPC binding each call one (combined) verifier, so both authenticate alike.
 */
export interface BearerVerifier {
  /** Whether any token is configured: then every request must present one (or an allowed login). */
  readonly required: boolean;
  verify(token: string): Promise<Verdict>;
}

/** A configuration the server cannot start with (a missing variable, a key that does not parse). */
export class AuthConfigError extends Error {}

export const refused = (refusal: TokenRefusal): Verdict => refuse(refusal);

const UNKNOWN: Verdict = refused({ kind: "invalid_token", problem: { kind: "unknown" } });

/** Compact JWS: three base64url segments. Anything else is no JWT, whatever it holds. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Names the caller a token stands for, or says why not. */
export interface StaticTokens {
  readonly size: number;
  /** The name of the token presented, or undefined. */
  match(token: string): string | undefined;
}

/**
 * Static tokens first (cheap, constant time), then OpenID Connect for what looks like a JWT. A
 * token that is neither is "not valid" when static tokens are configured, and left to the OIDC
 * verifier (which says it is no JWT) when they are not.
 */
export class CombinedVerifier implements BearerVerifier {
  constructor(
    private readonly tokens: StaticTokens,
    private readonly oidc: BearerVerifier | undefined,
  ) {}

  get required(): boolean {
    return this.tokens.size > 0 || this.oidc !== undefined;
  }

  async verify(token: string): Promise<Verdict> {
    const name = this.tokens.match(token);
    if (name !== undefined) return { ok: true, caller: { kind: "token", name } };
    if (this.oidc !== undefined && (JWT_SHAPE.test(token) || this.tokens.size === 0)) {
      return this.oidc.verify(token);
    }
    return UNKNOWN;
  }
}
