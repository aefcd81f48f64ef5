import type { User } from "@a2a-js/sdk/server";

/**
 * Who is calling, independent of the binding that carried the call (no Express here): HTTP, gRPC,
 * the stores and the session pool all speak of callers and their scopes through this module.
 */

/** Who a request comes from, once authentication has decided. */
export type Caller =
  | { readonly kind: "anonymous" }
  | { readonly kind: "login"; readonly login: string }
  | { readonly kind: "token"; readonly name: string }
  /** An OpenID Connect token's caller: the claim `server.auth.oidc.subjectClaim` names. */
  | { readonly kind: "oidc"; readonly subject: string }
  /** A trigger of the config (`triggers.<name>`): no human, its own limits and scope. */
  | { readonly kind: "trigger"; readonly name: string };

export const ANONYMOUS: Caller = { kind: "anonymous" };

/** What logs and `ServerCallContext.state.caller` show: the login, token name, subject or `anonymous`. */
export function callerName(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return "anonymous";
    case "login":
      return caller.login;
    case "token":
      return caller.name;
    case "oidc":
      return caller.subject;
    case "trigger":
      return `trigger:${caller.name}`;
  }
}

/** The SDK's `resolveUserScope` for an unauthenticated call. */
export const ANONYMOUS_OWNER = "unknown";

/** The prefixes of the authenticated scopes: the store's owner upgrade leaves these alone. */
export const SCOPE_PREFIXES = ["login:", "token:", "oidc:", "trigger:"] as const;

/**
 * The scope a caller's tasks, push configs and conversations live in. The SDK's stores scope by
 * `User.userName` and put every unauthenticated call in one scope named `unknown`; prefixing the
 * authenticated names keeps a login literally named `unknown` (or a token named like a login, or
 * a subject named like either) out of anyone else's scope.
 */
export function ownerKey(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return ANONYMOUS_OWNER;
    case "login":
      return `login:${caller.login}`;
    case "token":
      return `token:${caller.name}`;
    case "oidc":
      return `oidc:${caller.subject}`;
    case "trigger":
      return `trigger:${caller.name}`;
  }
}

/** The trigger's name of a `trigger:<name>` scope; undefined for any other caller's. */
export function triggerOfScope(scope: string): string | undefined {
  return scope.startsWith("trigger:") ? scope.slice("trigger:".length) : undefined;
}

/** The A2A SDK's view of a caller: `userName` is its scope, never shown to anyone. */
export class CallerUser implements User {
  constructor(readonly caller: Caller) {}
  get isAuthenticated(): boolean {
    return this.caller.kind !== "anonymous";
  }
  get userName(): string {
    return ownerKey(this.caller);
  }
}
