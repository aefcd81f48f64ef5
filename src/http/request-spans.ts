import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import type { TraceSpan, Tracing } from "../tracing/tracing.js";
import { ownerKey } from "../identity/caller.js";
import { callerOf } from "./caller.js";
import { requestIds } from "./request-ids.js";

export type TracedBinding = "jsonrpc" | "rest";

/** The A2A method a REST request calls (`/tasks/abc:cancel` → `CancelTask`); undefined if none. Pure. */
export function restMethod(httpMethod: string, path: string): string | undefined {
  let p: string;
  try {
    p = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const m = httpMethod.toUpperCase();
  // An optional tenant segment comes first: `/<tenant>/tasks`.
  const route = /(?:^|\/)(extendedAgentCard|message:send|message:stream|tasks(?:\/.*)?)$/.exec(
    p,
  )?.[1];
  if (route === undefined) return undefined;
  if (route === "extendedAgentCard") return m === "GET" ? "GetExtendedAgentCard" : undefined;
  if (route === "message:send") return m === "POST" ? "SendMessage" : undefined;
  if (route === "message:stream") return m === "POST" ? "SendStreamingMessage" : undefined;
  if (route === "tasks") return m === "GET" ? "ListTasks" : undefined;
  if (/^tasks\/[^/]+:subscribe$/.test(route)) return "SubscribeToTask";
  if (/^tasks\/[^/]+:cancel$/.test(route)) return m === "POST" ? "CancelTask" : undefined;
  if (/^tasks\/[^/:]+$/.test(route)) return m === "GET" ? "GetTask" : undefined;
  if (/^tasks\/[^/]+\/pushNotificationConfigs$/.test(route)) {
    if (m === "POST") return "CreateTaskPushNotificationConfig";
    return m === "GET" ? "ListTaskPushNotificationConfigs" : undefined;
  }
  if (/^tasks\/[^/]+\/pushNotificationConfigs\/[^/]+$/.test(route)) {
    if (m === "GET") return "GetTaskPushNotificationConfig";
    return m === "DELETE" ? "DeleteTaskPushNotificationConfig" : undefined;
  }
  return undefined;
}

// Keyed by the request's header object: the SDK hands the same object to the call-context
// builder, which has no other way to reach the request.
const spans = new WeakMap<IncomingHttpHeaders, TraceSpan>();

/** The span of the request whose headers these are, if it is traced. */
export const requestSpan = (headers: IncomingHttpHeaders | undefined): TraceSpan | undefined =>
  headers === undefined ? undefined : spans.get(headers);

const errorOf = (body: unknown): { code: unknown; message: string } | undefined => {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message: typeof message === "string" ? message.slice(0, 300) : "" };
};

/**
 * One span per A2A request on a binding, from its arrival to its answer's end (a stream's last
 * event): a child of the request's W3C `traceparent` when it carries one, named after the A2A
 * method, with the caller, the task and context ids it names and the answer's status. Mounted
 * only when tracing is on.
 */
export function traceRequests(tracing: Tracing, binding: TracedBinding): RequestHandler {
  return (req, res, next) => {
    const span = tracing.request(`A2A ${binding}`, req.headers, {
      "a2a.binding": binding,
      "http.request.method": req.method,
    });
    spans.set(req.headers, span);
    let error: { code: unknown; message: string } | undefined;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      error = errorOf(body);
      return json(body);
    };
    res.once("close", () => {
      const ids = requestIds(req.body, req.path, undefined);
      const method = binding === "jsonrpc" ? ids.rpc : restMethod(req.method, req.path);
      if (method !== undefined) span.rename(`A2A ${method}`);
      span.set({
        "a2a.method": method,
        "a2a.caller": ownerKey(callerOf(req)),
        "a2a.task.id": ids.taskId,
        "a2a.context.id": ids.contextId,
        "http.response.status_code": res.statusCode,
        "a2a.error.code": typeof error?.code === "number" ? error.code : undefined,
      });
      if (error !== undefined || res.statusCode >= 500) {
        span.fail(error?.message ?? `HTTP ${res.statusCode}`);
      }
      span.end();
    });
    next();
  };
}
