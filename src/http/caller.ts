import type { Request, RequestHandler } from "express";
import { UnauthenticatedUser, type User } from "@a2a-js/sdk/server";

/** Set by `tailscale serve` on every request it proxies; asserted by the proxy, not verified here. */
export const TAILSCALE_LOGIN_HEADER = "tailscale-user-login";

export function callerLogin(req: Pick<Request, "header">): string | undefined {
  const login = req.header(TAILSCALE_LOGIN_HEADER)?.trim();
  return login ? login : undefined;
}

/** What logs show for the caller: the login, or `anonymous`. */
export const callerName = (login: string | undefined) => login ?? "anonymous";

/** A caller known by its login; the SDK's stores scope tasks by `userName`. */
export class LoginUser implements User {
  constructor(private readonly login: string) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return this.login;
  }
}

export function userFor(req: Request): Promise<User> {
  const login = callerLogin(req);
  return Promise.resolve(login === undefined ? new UnauthenticatedUser() : new LoginUser(login));
}

/**
 * `server.allowedLogins`: when set and non-empty, a request whose login is missing or not listed is
 * answered 403 before it reaches the agent.
 */
export function allowedLoginsGate(allowed: readonly string[] | undefined): RequestHandler {
  const set = new Set(allowed ?? []);
  return (req, res, next) => {
    if (set.size === 0) return next();
    const login = callerLogin(req);
    if (login !== undefined && set.has(login)) return next();
    res.status(403).json({ error: "forbidden" });
  };
}
