/**
 * The gRPC binding's whole use of authentication: the server's one `Authenticator` (src/auth/,
 * the same instance the HTTP gate calls), fed from call metadata instead of headers, and its
 * refusal mapped to a gRPC status with the text every binding gives it. Nothing else in
 * `src/grpc/` knows how a caller is authenticated.
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
import type { Logger } from "pino";
import { refusalMessage } from "../contract/auth-messages.js";
import { GRPC_INTERNAL_ERROR } from "../contract/grpc.js";
import type { Authenticator, AuthInput } from "../auth/decide.js";
import type { AuthRefusal } from "../auth/refusal.js";
import { TAILSCALE_LOGIN_HEADER, TrustedProxies } from "../http/caller.js";
import { CallerUser, type Caller } from "../identity/caller.js";

export interface GrpcAuthOptions {
  /** The server's authenticator, shared with the HTTP bindings. */
  readonly auth: Authenticator;
  readonly trustedProxies: readonly string[];
  /**
   * Who of those the authenticator lets in may call this binding's agent (a workspace's
   * `callers`), and the text a caller it refuses gets (`PERMISSION_DENIED`). Default: everyone.
   */
  readonly access?: { allows(caller: Caller): boolean; readonly refusal: string };
}

/** The text values of a metadata key, joined as HTTP joins a repeated header. */
function textValue(metadata: Metadata, key: string): string | undefined {
  const values = metadata.get(key).map((v) => (typeof v === "string" ? v : v.toString("utf8")));
  return values.length === 0 ? undefined : values.join(", ");
}

/**
 * What the authenticator reads from a call: its `authorization` metadata (several values are
 * joined, so they never verify) and, from a trusted proxy only, its `tailscale-user-login`. Pure.
 */
export function authInput(
  metadata: Metadata,
  peer: string | undefined,
  trusted: TrustedProxies,
): AuthInput {
  const login = trusted.has(peer) ? textValue(metadata, TAILSCALE_LOGIN_HEADER)?.trim() : undefined;
  return { authorization: textValue(metadata, "authorization"), login: login || undefined };
}

/** The gRPC code of a refusal: HTTP's 401 / 403 / 503, as gRPC names them. Pure. */
export function refusalCode(refusal: AuthRefusal): Status {
  switch (refusal.kind) {
    case "missing":
    case "invalid_token":
      return Status.UNAUTHENTICATED;
    case "login_forbidden":
    case "insufficient_scope":
      return Status.PERMISSION_DENIED;
    case "unavailable":
      return Status.UNAVAILABLE;
  }
}

/** The status a refused call ends with. Pure. */
export function refusalStatus(refusal: AuthRefusal): Pick<StatusObject, "code" | "details"> {
  return { code: refusalCode(refusal), details: refusalMessage(refusal) };
}

// The auth interceptor hands the caller to the user builder through the call's metadata object:
// grpc-js gives the handler's call the very object the interceptors passed on.
const callers = new WeakMap<Metadata, Caller>();

/** Who a call comes from, once the auth interceptor let it in; undefined otherwise. */
export const callerOfCall = (metadata: Metadata): Caller | undefined => callers.get(metadata);

/**
 * Authenticates every call from its metadata, before its request is read: a refused call ends
 * there with its status, and never reaches the A2A handler. The check is asynchronous (an OIDC
 * key set may be fetched): grpc-js holds the call's messages until `pass` is called.
 */
export function authInterceptor(
  o: GrpcAuthOptions,
  logger: Pick<Logger, "warn" | "error">,
): ServerInterceptor {
  const trusted = new TrustedProxies(o.trustedProxies);
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            const peer = call.getConnectionInfo().remoteAddress;
            o.auth.authenticate(authInput(metadata, peer, trusted)).then(
              (decision) => {
                if (decision.ok) {
                  if (o.access && !o.access.allows(decision.caller)) {
                    return call.sendStatus({
                      code: Status.PERMISSION_DENIED,
                      details: o.access.refusal,
                    });
                  }
                  callers.set(metadata, decision.caller);
                  return pass(metadata);
                }
                if (decision.reason.kind === "unavailable") {
                  logger.warn(
                    { cause: decision.reason.cause },
                    "auth: the identity provider's keys could not be fetched",
                  );
                }
                call.sendStatus(refusalStatus(decision.reason));
              },
              (err: unknown) => {
                // The authenticator does not throw by contract: a bug, logged, its text kept.
                logger.error({ error: { message: (err as Error).message } }, "auth failed");
                call.sendStatus({ code: Status.INTERNAL, details: GRPC_INTERNAL_ERROR });
              },
            );
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
