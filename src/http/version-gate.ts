import type { Request, RequestHandler } from "express";
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import {
  isLegacyJsonRpcMethod,
  isV1JsonRpcMethod,
  legacyJsonRpcToV1Method,
  v1MethodToLegacyJsonRpc,
} from "@a2a-js/sdk/compat/v0_3";
import {
  restStatusFor,
  toJsonRpcError,
  toRestErrorBody,
  VersionNotSupportedError,
} from "@a2a-js/sdk/errors";
import { otherVersionMethodMessage, V03, V1, versionRefusedMessage } from "../contract/versions.js";
import { jsonRpcId } from "./error-handler.js";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";

/** The protocol version a request is served in. */
export type Wire = typeof V1 | typeof V03;

export type VersionDecision =
  | { readonly kind: "serve"; readonly wire: Wire }
  | { readonly kind: "refuse"; readonly message: string };

/**
 * Which version a request speaks, from its `A2A-Version` header (A2A v1.0 §3.6: absent or empty
 * means 0.3), and whether it is served: 1.0 always, 0.3 only with `server.compat.v03`. The same
 * split as the SDK's handlers (1.3), which send exactly "0.3" or no header to their v0.3
 * transport; every other value is refused here, before the SDK, with a message that says what
 * to send. Pure.
 */
export function versionDecision(header: string | undefined, compat: boolean): VersionDecision {
  const requested = header === undefined || header.trim() === "" ? undefined : header.trim();
  if (requested === V1) return { kind: "serve", wire: V1 };
  if (compat && (requested === undefined || requested === V03)) return { kind: "serve", wire: V03 };
  return { kind: "refuse", message: versionRefusedMessage(requested, compat) };
}

const legacyNameOf = (v1Method: string): string | undefined => {
  try {
    return v1MethodToLegacyJsonRpc(v1Method);
  } catch {
    return undefined; // a v1.0 method without a v0.3 one (ListTasks)
  }
};

/**
 * Why a JSON-RPC method is not one of the version the request is read as (a v1.0 name sent
 * without the header, a v0.3 name sent with `A2A-Version: 1.0`), or undefined. Pure.
 */
export function methodVersionProblem(
  method: unknown,
  wire: Wire,
  o: { readonly headerSent: boolean; readonly compat: boolean },
): string | undefined {
  if (typeof method !== "string") return undefined;
  if (wire === V03 && isV1JsonRpcMethod(method) && !isLegacyJsonRpcMethod(method)) {
    return otherVersionMethodMessage({
      method,
      readAs: V03,
      counterpart: legacyNameOf(method),
      ...o,
    });
  }
  if (wire === V1 && isLegacyJsonRpcMethod(method)) {
    const counterpart = legacyJsonRpcToV1Method(method);
    return otherVersionMethodMessage({ method, readAs: V1, counterpart, ...o });
  }
  return undefined;
}

const headerOf = (req: Request): string | undefined => req.header(A2A_VERSION_HEADER);

/** The version `req` is served in (call after the gate has let it through). */
export const wireOf = (req: Request, compat: boolean): Wire => {
  const decision = versionDecision(headerOf(req), compat);
  return decision.kind === "serve" ? decision.wire : V1;
};

/** Refuses, in JSON-RPC's shape, a version the server does not serve or a method of the other. */
export function jsonRpcVersionGate(compat: boolean): RequestHandler {
  return (req, res, next) => {
    // Not JSON: the SDK answers ContentTypeNotSupported, whatever the version.
    if (req.body === undefined) return next();
    const id = jsonRpcId(req.body);
    const header = headerOf(req);
    const decision = versionDecision(header, compat);
    if (decision.kind === "refuse") {
      const error = toJsonRpcError(new VersionNotSupportedError(decision.message));
      return void res.status(HTTP_STATUS.OK).json({ jsonrpc: "2.0", id, error });
    }
    const method = (req.body as { method?: unknown } | null)?.method;
    const headerSent = header !== undefined && header.trim() !== "";
    const problem = methodVersionProblem(method, decision.wire, { headerSent, compat });
    if (problem === undefined) return next();
    res.status(HTTP_STATUS.OK).json({
      jsonrpc: "2.0",
      id,
      error: { code: JSONRPC_CODE.METHOD_NOT_FOUND, message: problem },
    });
  };
}

/** Refuses, in the REST binding's shape, a version the server does not serve. */
export function restVersionGate(compat: boolean): RequestHandler {
  return (req, res, next) => {
    const decision = versionDecision(headerOf(req), compat);
    if (decision.kind === "serve") return next();
    const error = new VersionNotSupportedError(decision.message);
    const status = restStatusFor(error);
    // The media type the SDK gives every REST answer.
    res.status(status).type("application/a2a+json").json(toRestErrorBody(error, status));
  };
}
