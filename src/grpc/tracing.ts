/**
 * One span per gRPC call, as the HTTP bindings open one per request (`traceRequests`): a child of
 * the call's W3C `traceparent` metadata when it carries one, named after the A2A method, with the
 * caller and the status it ended with. The call context finds it (see call-state.ts), so the
 * task the call starts is its child. Mounted only when tracing is on.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  status as Status,
  ServerInterceptingCall,
  type Metadata,
  type ServerInterceptor,
} from "@grpc/grpc-js";
import { ownerKey, type Caller } from "../identity/caller.js";
import type { TraceSpan, Tracing } from "../tracing/tracing.js";
import { setCallSpan } from "./call-state.js";
import { statusName } from "./log.js";
import { rpcName, type CallStatus } from "./service.js";

const TRACE_KEYS = ["traceparent", "tracestate"] as const;

/** The W3C trace-context entries of a call's metadata, as the tracing seam reads headers. Pure. */
export function traceCarrier(metadata: Metadata): IncomingHttpHeaders {
  const carrier: IncomingHttpHeaders = {};
  for (const key of TRACE_KEYS) {
    const value = metadata.get(key)[0];
    if (typeof value === "string") carrier[key] = value;
  }
  return carrier;
}

export function tracingInterceptor(
  tracing: Tracing,
  callerOf: (metadata: Metadata) => Caller | undefined,
): ServerInterceptor {
  return (method, call) => {
    const rpc = rpcName(method.path);
    let span: TraceSpan | undefined;
    let metadata: Metadata | undefined;
    const end = (status: CallStatus) => {
      if (span === undefined) return;
      const caller = metadata && callerOf(metadata);
      span.set({
        "a2a.caller": caller && ownerKey(caller),
        "rpc.grpc.status_code": status.code,
      });
      if (status.code !== Status.OK) span.fail(`${statusName(status.code)}: ${status.details}`);
      span.end();
      span = undefined;
    };
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (md, pass) => {
            metadata = md;
            span = tracing.request(`A2A ${rpc}`, traceCarrier(md), {
              "a2a.binding": "grpc",
              "a2a.method": rpc,
              "rpc.system": "grpc",
            });
            setCallSpan(md, span);
            pass(md);
          },
          onCancel: () => end({ code: Status.CANCELLED, details: "the client cancelled the call" }),
        }),
      sendStatus: (status, next) => {
        end(status);
        next(status);
      },
    });
  };
}
