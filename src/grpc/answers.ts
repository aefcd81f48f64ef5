/**
 * What a gRPC answer may say. The SDK's service answers an error that is not an A2A error with
 * UNKNOWN and the error's own message, which may be any of Node's or a library's internal texts:
 * as on the HTTP bindings (`jsonRpcAnswers`), that message is logged as a server fault and the
 * client gets "Internal error." instead.
 */
import { status as Status, ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import type { Logger } from "pino";
import { GRPC_INTERNAL_ERROR } from "../a2a/contract/grpc.js";
import type { CallStatus } from "./service.js";

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

/** Applies `publicStatus` to every status the handler (or an inner interceptor) sends. */
export function answersInterceptor(logger: Logger): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      sendStatus: (status, next) => {
        const out = publicStatus(status);
        if (out.hidden !== undefined) {
          logger.error({ error: { message: out.hidden } }, "internal error answered");
        }
        next(out.status);
      },
    });
}
