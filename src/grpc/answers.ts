/**
 * What a gRPC answer may say. A request a per-caller limit refused (the request handler marked it
 * in the call context's state) is RESOURCE_EXHAUSTED with the refusal's message and ErrorInfo,
 * whatever code the SDK gave our error (as `jsonRpcLimitAnswer` and `restLimitAnswer` do). The
 * SDK's service answers an error that is not an A2A error with UNKNOWN and the error's own
 * message, which may be any of Node's or a library's internal texts: as on the HTTP bindings
 * (`jsonRpcErrorAnswer`), that message is logged as a server fault and the client gets "Internal
 * error." instead.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { GRPC_STATUS_DETAILS_BIN } from "@a2a-js/sdk/errors/grpc";
import {
  Metadata,
  status as Status,
  ServerInterceptingCall,
  type ServerInterceptor,
} from "@grpc/grpc-js";
import type { Logger } from "pino";
import { GRPC_INTERNAL_ERROR } from "../contract/grpc.js";
import { isGenerationMismatch } from "../contract/generations.js";
import { REFUSAL_STATE_KEY, type LimitErrorInfo } from "../contract/limits.js";
import { callState } from "./call-state.js";
import type { CallStatus } from "./service.js";

/**
 * `grpc-status-details-bin`: a `google.rpc.Status` carrying the refusal's ErrorInfo (our domain,
 * so not the SDK's encoder, which writes the protocol's). Pure.
 */
export function statusDetails(code: number, message: string, info: LimitErrorInfo): Buffer {
  const errorInfo = new BinaryWriter()
    .uint32(10)
    .string(info.reason)
    .uint32(18)
    .string(info.domain);
  for (const [key, value] of Object.entries(info.metadata)) {
    errorInfo.uint32(26).fork().uint32(10).string(key).uint32(18).string(value).join();
  }
  const status = new BinaryWriter().uint32(8).int32(code).uint32(18).string(message);
  status.uint32(26).fork().uint32(10).string(info["@type"]).uint32(18).bytes(errorInfo.finish());
  return Buffer.from(status.join().finish());
}

/**
 * The status of a call a per-caller limit refused (`info`: the ErrorInfo the request handler left
 * in the call's state): RESOURCE_EXHAUSTED with the refusal's message (the error's, which the SDK
 * keeps) and its ErrorInfo, whatever code the SDK gave our error (UNKNOWN: it does not know it).
 * Any other status unchanged. Pure.
 */
export function limitStatus(status: CallStatus, info: LimitErrorInfo | undefined): CallStatus {
  if (info === undefined || status.code === Status.OK) return status;
  const code = Status.RESOURCE_EXHAUSTED;
  const metadata = new Metadata();
  metadata.set(GRPC_STATUS_DETAILS_BIN, statusDetails(code, status.details, info));
  return { code, details: status.details, metadata };
}

/**
 * v1.1's TaskGenerationMismatchError: ABORTED, where the SDK, which knows no such error, answers
 * the UnsupportedOperation it was thrown as (FAILED_PRECONDITION). Its details, the SDK's
 * ErrorInfo of that other error, are left out. Any other status unchanged. Pure.
 */
export function generationStatus(status: CallStatus): CallStatus {
  if (status.code === Status.OK || !isGenerationMismatch(status.details)) return status;
  return { code: Status.ABORTED, details: status.details, metadata: null };
}

const isErrorInfo = (v: unknown): v is LimitErrorInfo =>
  typeof v === "object" && v !== null && typeof (v as { reason?: unknown }).reason === "string";

const FAULTS: readonly number[] = [Status.UNKNOWN, Status.INTERNAL];

/** The status as it may go out, and the text to log when it hid one. Pure. */
export function publicStatus(status: CallStatus): {
  status: CallStatus;
  hidden?: string;
} {
  if (!FAULTS.includes(status.code) || status.details === GRPC_INTERNAL_ERROR) return { status };
  // Its metadata (the ErrorInfo of an A2A internal error) repeats the text: dropped too.
  return {
    status: { code: status.code, details: GRPC_INTERNAL_ERROR, metadata: null },
    hidden: status.details,
  };
}

/** Applies `limitStatus`, then `publicStatus`, to every status the handler sends. */
export function answersInterceptor(logger: Logger): ServerInterceptor {
  return (_method, call) => {
    let metadata: Metadata | undefined;
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (md, pass) => {
            metadata = md;
            pass(md);
          },
        }),
      sendStatus: (status, next) => {
        const info = callState(metadata)?.get(REFUSAL_STATE_KEY);
        const limited = limitStatus(status, isErrorInfo(info) ? info : undefined);
        const out = publicStatus(generationStatus(limited));
        if (out.hidden !== undefined) {
          logger.error({ error: { message: out.hidden } }, "internal error answered");
        }
        next(out.status);
      },
    });
  };
}
