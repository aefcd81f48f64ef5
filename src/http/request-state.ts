import type { IncomingHttpHeaders } from "node:http";

// Keyed by the request's header object: the SDK hands that same object to the call-context
// builder, whose state the request handler marks (a limit's refusal, an SSE event's number).
const states = new WeakMap<IncomingHttpHeaders, ReadonlyMap<string, unknown>>();

/** The call-context builder records each request's state, so its answer can be corrected. */
export function rememberState(
  headers: IncomingHttpHeaders | undefined,
  state: ReadonlyMap<string, unknown>,
): void {
  if (headers !== undefined) states.set(headers, state);
}

/** The call context's state of a request, once the SDK has built its context. */
export function requestStateOf(
  headers: IncomingHttpHeaders,
): ReadonlyMap<string, unknown> | undefined {
  return states.get(headers);
}
