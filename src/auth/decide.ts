import type { Caller } from "../identity/caller.js";
import type { AuthRefusal } from "./refusal.js";
import type { BearerVerifier, Verdict } from "./verifier.js";
import { refuse, type Refusal } from "../common/refusal.js";

/** The token of an `Authorization: Bearer <token>` header; undefined for any other form. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header ?? "");
  return match?.[1];
}

/** What a request brings, whatever the binding. */
export interface AuthInput {
  /** The `Authorization` header (gRPC: `authorization` metadata), if any. */
  readonly authorization: string | undefined;
  /** The login a trusted proxy asserted; undefined from any other peer. */
  readonly login: string | undefined;
}

export interface AuthFacts {
  /** What checking the presented token found; undefined when no `Authorization` was sent. */
  readonly bearer: Verdict | undefined;
  readonly login: string | undefined;
}

export interface AuthPolicy {
  /** Whether any token is configured (static or OIDC): then every request must authenticate. */
  readonly bearerRequired: boolean;
  /** `server.allowedLogins`; empty: no login gate. */
  readonly allowedLogins: ReadonlySet<string>;
}

export type AuthDecision = { readonly ok: true; readonly caller: Caller } | Refusal<AuthRefusal>;

const admit = (caller: Caller): AuthDecision => ({ ok: true, caller });

/**
 * Who the request is from, or why it is refused. A valid bearer token or an allowed login from the
 * trusted proxy each let a request in; a presented token that is wrong is refused even when a
 * login would have passed (a client that sends a token means it). Pure.
 */
export function decideAuth(facts: AuthFacts, policy: AuthPolicy): AuthDecision {
  const gated = policy.allowedLogins.size > 0;
  const allowedLogin =
    facts.login !== undefined && policy.allowedLogins.has(facts.login) ? facts.login : undefined;
  if (policy.bearerRequired) {
    if (facts.bearer !== undefined) {
      return facts.bearer.ok ? admit(facts.bearer.caller) : refuse(facts.bearer.reason);
    }
    if (allowedLogin !== undefined) return admit({ kind: "login", login: allowedLogin });
    return refuse({ kind: "missing" });
  }
  if (gated) {
    if (allowedLogin !== undefined) return admit({ kind: "login", login: allowedLogin });
    return refuse({ kind: "login_forbidden" });
  }
  if (facts.login !== undefined) return admit({ kind: "login", login: facts.login });
  return admit({ kind: "anonymous" });
}

const NOT_BEARER: Verdict = refuse({ kind: "invalid_token", problem: { kind: "not_bearer" } });

/** No token configured and no login gate: every caller gets in. */
const OPEN: BearerVerifier = {
  required: false,
  verify: () => Promise.resolve(NOT_BEARER),
};

/**
 * The one authentication step every binding runs before its handler: checks the token (only
 * when tokens are configured: an open server ignores the header), then `decideAuth`.
 */
export class Authenticator {
  private readonly policy: AuthPolicy;
  private readonly verifier: BearerVerifier;

  constructor(o: { verifier?: BearerVerifier; allowedLogins?: readonly string[] | undefined }) {
    this.verifier = o.verifier ?? OPEN;
    this.policy = {
      bearerRequired: this.verifier.required,
      allowedLogins: new Set(o.allowedLogins ?? []),
    };
  }

  async authenticate(input: AuthInput): Promise<AuthDecision> {
    let bearer: Verdict | undefined;
    if (this.policy.bearerRequired && input.authorization !== undefined) {
      const token = bearerToken(input.authorization);
      bearer = token === undefined ? NOT_BEARER : await this.verifier.verify(token);
    }
    return decideAuth({ bearer, login: input.login }, this.policy);
  }
}
