import type { ListTasksRequest } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { WORKSPACE_NAME } from "../../config/workspace-names.js";
import { TASK_TRIGGER_HEADER } from "../../contract/triggers.js";
import { headerOf } from "./replay-request.js";

/** An RFC 3339 timestamp, as the proto's `google.protobuf.Timestamp` is written in JSON. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * ListTasks' `statusTimestampAfter` as the proto means it: tasks whose status changed at or after
 * it. The stores (ours and the SDK's) compare strictly, in milliseconds: the bound moves back by
 * one. A value that is not an RFC 3339 timestamp is InvalidParams (the SDK took "-1", a year).
 */
export function atOrAfter(params: ListTasksRequest): ListTasksRequest {
  const after = params.statusTimestampAfter;
  if (after === undefined || after === "") return params;
  const ms = RFC3339.test(after) ? Date.parse(after) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new RequestMalformedError(
      `statusTimestampAfter must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z (got ${JSON.stringify(after.slice(0, 40))})`,
    );
  }
  return { ...params, statusTimestampAfter: new Date(ms - 1).toISOString() };
}

/**
 * The trigger a ListTasks keeps the tasks of (`A2A-Task-Trigger`, docs/triggers.md "Operating
 * triggers"), or undefined when the request names none. A value that cannot be a trigger's name
 * is InvalidParams, so a typo never reads as "no tasks".
 */
export function listedTrigger(context: ServerCallContext): string | undefined {
  const raw = headerOf(context, TASK_TRIGGER_HEADER);
  if (raw === undefined || raw === "") return undefined;
  if (!WORKSPACE_NAME.test(raw)) {
    throw new RequestMalformedError(
      `A2A-Task-Trigger must be a trigger's name: lowercase letters, digits and inner hyphens (got ${JSON.stringify(raw.slice(0, 70))})`,
    );
  }
  return raw;
}
