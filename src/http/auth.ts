import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { refusalMessage } from "../contract/auth-messages.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";
import type { Authenticator } from "../auth/decide.js";
import { refusalStatus, type AuthRefusal } from "../auth/refusal.js";
import { proxiedLogin, setCaller, TrustedProxies } from "./caller.js";

export interface AuthGateOptions {
  readonly auth: Authenticator;
  readonly trustedProxies: readonly string[];
  readonly logger: Pick<Logger, "warn">;
}

const REALM = 'Bearer realm="claude-a2a"';

/** RFC 6750 §3: a quoted-string without `"` or `\`, printable ASCII only. */
const quotedValue = (text: string) =>
  text.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "?");

/** The `WWW-Authenticate` challenge of a refusal; undefined when none belongs (403 login, 503). */
export function challenge(refusal: AuthRefusal): string | undefined {
  const description = `error_description="${quotedValue(refusalMessage(refusal))}"`;
  switch (refusal.kind) {
    case "missing":
      return REALM;
    case "invalid_token":
      return `${REALM}, error="invalid_token", ${description}`;
    case "insufficient_scope":
      return `${REALM}, error="insufficient_scope", ${description}, scope="${quotedValue(refusal.missing.join(" "))}"`;
    case "login_forbidden":
    case "unavailable":
      return undefined;
  }
}

/** Where the gate leaves a refusal's reason for the request's log line. */
const REFUSED = "claudeA2aAuthRefusal";

/** The reason the gate refused this request (the caller's message, no token), if it did. */
export function authRefusalOf(res: {
  readonly locals: Record<string, unknown>;
}): string | undefined {
  const reason = res.locals[REFUSED];
  return typeof reason === "string" ? reason : undefined;
}

const ERROR_NAMES = {
  [HTTP_STATUS.UNAUTHORIZED]: "unauthorized",
  [HTTP_STATUS.FORBIDDEN]: "forbidden",
  [HTTP_STATUS.SERVICE_UNAVAILABLE]: "unavailable",
} as const;

/**
 * Runs before every A2A handler (and `/metrics`): decides who the caller is, or answers 401, 403
 * or 503 with a JSON body and, for token refusals, a `WWW-Authenticate` challenge saying what is
 * wrong. The agent card and `/healthz` stay public.
 */
export function authGate(o: AuthGateOptions): RequestHandler {
  const trusted = new TrustedProxies(o.trustedProxies);
  return (req, res, next) => {
    o.auth
      .authenticate({
        authorization: req.header("authorization"),
        login: proxiedLogin(req, trusted),
      })
      .then((decision) => {
        if (decision.ok) {
          setCaller(req, decision.caller);
          return next();
        }
        const { reason: refusal } = decision;
        if (refusal.kind === "unavailable") {
          o.logger.warn(
            { cause: refusal.cause },
            "auth: the identity provider's keys could not be fetched",
          );
        }
        const status = refusalStatus(refusal);
        res.locals[REFUSED] = `${refusal.kind}: ${refusalMessage(refusal)}`;
        const header = challenge(refusal);
        if (header !== undefined) res.setHeader("WWW-Authenticate", header);
        res.status(status).json({ error: ERROR_NAMES[status], message: refusalMessage(refusal) });
      }, next);
  };
}
