/**
 * What a gRPC request must be before the A2A handler sees it: A2A 1.0 (its `a2a-version`
 * metadata), its bytes its protobuf message, and its content what the HTTP bindings accept (the
 * same checks, on its ProtoJSON form). A refused request ends with the status the SDK gives the
 * A2A error (VersionNotSupported: FAILED_PRECONDITION; RequestMalformed: INVALID_ARGUMENT; with
 * its ErrorInfo), before any task exists.
 */
import { RequestMalformedError, VersionNotSupportedError, type A2AError } from "@a2a-js/sdk/errors";
import { buildGrpcErrorMetadata, grpcStatusFor } from "@a2a-js/sdk/errors/grpc";
import { Metadata, ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import { grpcVersionRefused, notDecodable } from "../contract/grpc.js";
import { MAX_JSON_DEPTH, messageProblem, nestedDeeperThan } from "../http/request-shape.js";
import { MalformedRequest, REQUEST_CODECS, rpcName, type CallStatus } from "./service.js";

const MESSAGE_RPCS: readonly string[] = ["SendMessage", "SendStreamingMessage"];

/** What is wrong with a decoded request of `rpc`, or undefined. Pure. */
export function requestProblem(rpc: string, request: unknown): string | undefined {
  if (request instanceof MalformedRequest) return notDecodable(rpc, request.reason);
  const codec = REQUEST_CODECS[rpc];
  if (codec === undefined) return undefined;
  let json: unknown;
  try {
    json = codec.toJSON(request as never);
  } catch (err) {
    return notDecodable(rpc, (err as Error).message);
  }
  if (nestedDeeperThan(json, MAX_JSON_DEPTH)) {
    return `The request is nested deeper than ${MAX_JSON_DEPTH} levels.`;
  }
  if (!MESSAGE_RPCS.includes(rpc)) return undefined;
  return messageProblem((json as { message?: unknown } | null)?.message);
}

/** Why a call's `a2a-version` metadata (its first value) is refused, or undefined. Pure. */
export function versionProblem(metadata: Metadata): string | undefined {
  const value = metadata.get("a2a-version")[0];
  const requested = typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  return requested === "1.0" ? undefined : grpcVersionRefused(requested);
}

/** The status the SDK's gRPC service answers an A2A error with (code, text, ErrorInfo). */
export function a2aErrorStatus(error: A2AError): CallStatus {
  return {
    code: grpcStatusFor(error),
    details: error.message,
    metadata: buildGrpcErrorMetadata(Metadata, error) ?? null,
  };
}

/**
 * Refuses a call of another version (the SDK would, with a text that does not say what to send)
 * and a malformed request (see `requestProblem`), before the handler reads either.
 */
export const requestGuard: ServerInterceptor = (method, call) => {
  const rpc = rpcName(method.path);
  let refused = false;
  return new ServerInterceptingCall(call, {
    start: (next) =>
      next({
        onReceiveMetadata: (metadata, pass) => {
          const problem = versionProblem(metadata);
          if (problem === undefined) return pass(metadata);
          refused = true;
          call.sendStatus(a2aErrorStatus(new VersionNotSupportedError(problem)));
        },
        onReceiveMessage: (request, pass) => {
          if (refused) return;
          const problem = requestProblem(rpc, request);
          if (problem === undefined) return pass(request);
          refused = true;
          call.sendStatus(a2aErrorStatus(new RequestMalformedError(problem)));
        },
        // The handler never got the request: its end must not reach it either.
        onReceiveHalfClose: (pass) => {
          if (!refused) pass();
        },
      }),
  });
};
