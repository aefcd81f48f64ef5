/**
 * One log line per gRPC call, like the HTTP request line: the A2A method, the task and context it
 * concerns, the caller, the status it ended with and its duration; the error's code and text when
 * it failed. Never metadata values or message content.
 */
import {
  status as Status,
  ServerInterceptingCall,
  type Metadata,
  type ServerInterceptor,
} from "@grpc/grpc-js";
import type { Logger } from "pino";
import { ANONYMOUS, callerName, type Caller } from "../identity/caller.js";
import type { RequestIds } from "../http/request-ids.js";
import { rpcName, type CallStatus } from "./service.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v.slice(0, 100) : undefined;

const TASK_ID_RPCS: readonly string[] = ["GetTask", "CancelTask", "SubscribeToTask"];

/**
 * The ids a call concerns, from its decoded request and its first answer (a new task's ids exist
 * only there: the answer wins). Reads nothing but ids. Pure.
 */
export function callIds(rpc: string, request: unknown, answer: unknown): RequestIds {
  const req = obj(request);
  const message = obj(req?.message);
  let taskId =
    str(message?.taskId) ??
    str(req?.taskId) ??
    (TASK_ID_RPCS.includes(rpc) ? str(req?.id) : undefined);
  let contextId = str(message?.contextId) ?? str(req?.contextId);
  // A SendMessageResponse or StreamResponse wraps its payload; GetTask and CancelTask answer a task.
  const payload = obj(obj(answer)?.payload);
  const value = obj(payload?.value) ?? (payload === undefined ? obj(answer) : undefined);
  const task = payload?.$case === "task" || (payload === undefined && value?.status !== undefined);
  const answeredTask = task ? str(value?.id) : str(value?.taskId);
  if (answeredTask !== undefined) taskId = answeredTask;
  contextId = str(value?.contextId) ?? contextId;
  return {
    rpc,
    ...(taskId !== undefined && { taskId }),
    ...(contextId !== undefined && { contextId }),
  };
}

/** `NOT_FOUND` for 5; the number itself for a code grpc-js does not name. */
export const statusName = (code: number): string => Status[code] ?? String(code);

/**
 * Logs each call once it ends. Put it first among the interceptors: then `call` is grpc-js's own,
 * and the status it sends by itself (a request over the size limit, an unknown compression, a
 * deadline) is seen as well as the handler's, by wrapping that call's `sendStatus`. A call that
 * ends with no status sent (the client cancelled or went away) is logged as CANCELLED.
 */
export function loggingInterceptor(
  logger: Logger,
  callerOf: (metadata: Metadata) => Caller | undefined,
): ServerInterceptor {
  return (method, call) => {
    const started = process.hrtime.bigint();
    const rpc = rpcName(method.path);
    let metadata: Metadata | undefined;
    let request: unknown;
    let answer: unknown;
    let logged = false;
    const log = (status: CallStatus) => {
      if (logged) return;
      logged = true;
      const failed = status.code !== Status.OK;
      logger.info(
        {
          path: method.path,
          status: statusName(status.code),
          caller: callerName((metadata && callerOf(metadata)) ?? ANONYMOUS),
          ...callIds(rpc, request, answer),
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
          ...(failed && {
            error: { code: statusName(status.code), message: status.details.slice(0, 300) },
          }),
        },
        "request",
      );
    };
    const send = call.sendStatus.bind(call);
    call.sendStatus = (status) => {
      log(status);
      send(status);
    };
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (md, pass) => {
            metadata = md;
            pass(md);
          },
          onReceiveMessage: (message, pass) => {
            request = message;
            pass(message);
          },
          onCancel: () => log({ code: Status.CANCELLED, details: "the client cancelled the call" }),
        }),
      sendMessage: (message, next) => {
        answer ??= message;
        next(message);
      },
    });
  };
}
