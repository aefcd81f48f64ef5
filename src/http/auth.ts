import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import type { Caller } from "../identity/caller.js";
import { proxiedLogin, setCaller, TrustedProxies } from "./caller.js";

/** A configured token (`server.auth.tokens`: exactly one of `sha256` and `env`). */
export interface TokenSpec {
  readonly name: string;
  readonly sha256?: string | undefined;
  readonly env?: string | undefined;
}

export class AuthConfigError extends Error {}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/** Checks presented bearer tokens against the configured ones, in constant time. */
export class TokenVerifier {
  private constructor(private readonly tokens: readonly { name: string; digest: Buffer }[]) {}

  /** Reads `env` tokens now: a missing or empty variable is a startup error naming it. */
  static from(specs: readonly TokenSpec[], env: NodeJS.ProcessEnv = process.env): TokenVerifier {
    return new TokenVerifier(
      specs.map((spec) => {
        if (spec.sha256 !== undefined) {
          return { name: spec.name, digest: Buffer.from(spec.sha256, "hex") };
        }
        const value = spec.env === undefined ? undefined : env[spec.env];
        if (value === undefined || value === "") {
          throw new AuthConfigError(
            `server.auth.tokens: token "${spec.name}" reads environment variable ` +
              `${spec.env ?? "(none)"}, which is not set`,
          );
        }
        return { name: spec.name, digest: digest(value) };
      }),
    );
  }

  get size(): number {
    return this.tokens.length;
  }

  /** The name of the token presented, or undefined. Every token is compared, match or not. */
  verify(presented: string): string | undefined {
    const candidate = digest(presented);
    let match: string | undefined;
    for (const token of this.tokens) {
      if (timingSafeEqual(candidate, token.digest) && match === undefined) match = token.name;
    }
    return match;
  }
}

/** The token of an `Authorization: Bearer <token>` header; undefined for any other form. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header ?? "");
  return match?.[1];
}

export interface AuthInput {
  /** The `Authorization` header, if any. */
  readonly authorization: string | undefined;
  /** The login a trusted proxy asserted; undefined from any other peer. */
  readonly login: string | undefined;
}

export interface AuthPolicy {
  /** Name of the token presented, or undefined when it matches none. */
  readonly verify: (token: string) => string | undefined;
  /** Whether any token is configured (then every request must authenticate). */
  readonly tokensRequired: boolean;
  /** `server.allowedLogins`; empty: no login gate. */
  readonly allowedLogins: ReadonlySet<string>;
}

export type AuthDecision =
  | { readonly ok: true; readonly caller: Caller }
  | { readonly ok: false; readonly status: 401; readonly invalidToken: boolean }
  | { readonly ok: false; readonly status: 403 };

/**
 * Who the request is from, or why it is refused. A valid bearer token or an allowed login from the
 * trusted proxy each let a request in; a presented token that is wrong is refused even when a
 * login would have passed (a client that sends a token means it). Pure.
 */
export function decideAuth(input: AuthInput, policy: AuthPolicy): AuthDecision {
  const gated = policy.allowedLogins.size > 0;
  const allowedLogin =
    input.login !== undefined && policy.allowedLogins.has(input.login) ? input.login : undefined;
  if (policy.tokensRequired) {
    if (input.authorization !== undefined) {
      const token = bearerToken(input.authorization);
      const name = token === undefined ? undefined : policy.verify(token);
      if (name === undefined) return { ok: false, status: 401, invalidToken: true };
      return { ok: true, caller: { kind: "token", name } };
    }
    if (allowedLogin !== undefined)
      return { ok: true, caller: { kind: "login", login: allowedLogin } };
    return { ok: false, status: 401, invalidToken: false };
  }
  if (gated) {
    if (allowedLogin !== undefined)
      return { ok: true, caller: { kind: "login", login: allowedLogin } };
    return { ok: false, status: 403 };
  }
  if (input.login !== undefined) return { ok: true, caller: { kind: "login", login: input.login } };
  return { ok: true, caller: { kind: "anonymous" } };
}

export interface AuthGateOptions {
  readonly tokens: TokenVerifier;
  readonly allowedLogins: readonly string[] | undefined;
  readonly trustedProxies: readonly string[];
}

const REALM = 'Bearer realm="claude-a2a"';

/**
 * Runs before every A2A handler (and `/metrics`): decides who the caller is, or answers 401/403.
 * The agent card and `/healthz` stay public.
 */
export function authGate(o: AuthGateOptions): RequestHandler {
  const trusted = new TrustedProxies(o.trustedProxies);
  const policy: AuthPolicy = {
    verify: (token) => o.tokens.verify(token),
    tokensRequired: o.tokens.size > 0,
    allowedLogins: new Set(o.allowedLogins ?? []),
  };
  return (req, res, next) => {
    const decision = decideAuth(
      { authorization: req.header("authorization"), login: proxiedLogin(req, trusted) },
      policy,
    );
    if (decision.ok) {
      setCaller(req, decision.caller);
      return next();
    }
    if (decision.status === 403) {
      res.status(403).json({ error: "forbidden", message: "This login may not call the agent." });
      return;
    }
    res.setHeader(
      "WWW-Authenticate",
      decision.invalidToken ? `${REALM}, error="invalid_token"` : REALM,
    );
    res.status(401).json({
      error: "unauthorized",
      message: decision.invalidToken
        ? "The bearer token is not valid."
        : "This agent requires Authorization: Bearer <token>.",
    });
  };
}
