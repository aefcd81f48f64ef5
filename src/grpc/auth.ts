/**
 * The gRPC binding's whole use of authentication: the HTTP bindings' verifier and decision
 * (`src/http/auth.ts`), fed from call metadata instead of headers, and their answer mapped to a
 * gRPC status. Nothing else in `src/grpc/` knows how a caller is authenticated.
 */
import type { Metadata } from "@grpc/grpc-js";
import {
  ServerInterceptingCall,
  status as Status,
  type ServerInterceptor,
  type ServerUnaryCall,
  type ServerWritableStream,
  type StatusObject,
} from "@grpc/grpc-js";
import type { User } from "@a2a-js/sdk/server";
import {
  GRPC_LOGIN_REFUSED,
  GRPC_TOKEN_INVALID,
  GRPC_TOKEN_REQUIRED,
} from "../a2a/contract/grpc.js";
import type { TokenVerifier } from "../http/auth.js";
import { decideAuth, type AuthDecision, type AuthInput, type AuthPolicy } from "../http/auth.js";
import { TAILSCALE_LOGIN_HEADER, TrustedProxies } from "../http/caller.js";
import { CallerUser, type Caller } from "../identity/caller.js";

export interface GrpcAuthOptions {
  /** `server.auth.tokens`, read. */
  readonly tokens: TokenVerifier;
  readonly allowedLogins: readonly string[] | undefined;
  readonly trustedProxies: readonly string[];
}

/** The text values of a metadata key, joined as HTTP joins a repeated header. */
function textValue(metadata: Metadata, key: string): string | undefined {
  const values = metadata.get(key).map((v) => (typeof v === "string" ? v : v.toString("utf8")));
  return values.length === 0 ? undefined : values.join(", ");
}

/**
 * What the decision reads from a call: its `authorization` metadata (several values are joined,
 * so they never verify) and, from a trusted proxy only, its `tailscale-user-login`. Pure.
 */
export function authInput(
  metadata: Metadata,
  peer: string | undefined,
  trusted: TrustedProxies,
): AuthInput {
  const login = trusted.has(peer) ? textValue(metadata, TAILSCALE_LOGIN_HEADER)?.trim() : undefined;
  return { authorization: textValue(metadata, "authorization"), login: login || undefined };
}

type Refusal = Exclude<AuthDecision, { ok: true }>;

/** The status a refused call ends with: 401 is UNAUTHENTICATED, 403 PERMISSION_DENIED. Pure. */
export function refusalStatus(decision: Refusal): Pick<StatusObject, "code" | "details"> {
  if (decision.status === 403)
    return { code: Status.PERMISSION_DENIED, details: GRPC_LOGIN_REFUSED };
  return {
    code: Status.UNAUTHENTICATED,
    details: decision.invalidToken ? GRPC_TOKEN_INVALID : GRPC_TOKEN_REQUIRED,
  };
}

// The auth interceptor hands the caller to the user builder through the call's metadata object:
// grpc-js gives the handler's call the very object the interceptors passed on.
const callers = new WeakMap<Metadata, Caller>();

/** Who a call comes from, once the auth interceptor let it in; undefined otherwise. */
export const callerOfCall = (metadata: Metadata): Caller | undefined => callers.get(metadata);

/**
 * Decides every call from its metadata, before its request is read: a refused call ends there with
 * its status, and never reaches the A2A handler. The decision may become asynchronous (a JWKS
 * lookup): grpc-js holds the call's messages until `next` is called.
 */
export function authInterceptor(o: GrpcAuthOptions): ServerInterceptor {
  const trusted = new TrustedProxies(o.trustedProxies);
  const policy: AuthPolicy = {
    verify: (token) => o.tokens.verify(token),
    tokensRequired: o.tokens.size > 0,
    allowedLogins: new Set(o.allowedLogins ?? []),
  };
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            const peer = call.getConnectionInfo().remoteAddress;
            const decision = decideAuth(authInput(metadata, peer, trusted), policy);
            if (!decision.ok) return call.sendStatus(refusalStatus(decision));
            callers.set(metadata, decision.caller);
            pass(metadata);
          },
        }),
    });
}

type AnyCall = ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>;

/**
 * The SDK's `userBuilder`: the caller the interceptor let in, as the same `User` (scope) the HTTP
 * bindings give it. A call the interceptor did not see is refused, never made anonymous.
 */
export function grpcUser(call: AnyCall): Promise<User> {
  const caller = callerOfCall(call.metadata);
  if (caller === undefined) return Promise.reject(new Error("gRPC call without an auth decision"));
  return Promise.resolve(new CallerUser(caller));
}
