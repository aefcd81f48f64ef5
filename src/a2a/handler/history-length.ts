import { RequestMalformedError } from "@a2a-js/sdk/errors";

/**
 * What is wrong with a request's `historyLength`: A2A reads it as "at most this many messages",
 * so a negative one is invalid, not "all" (the SDK's REST layer refuses it; its JSON-RPC and gRPC
 * paths did not). Undefined when it is fine.
 */
export function historyLengthProblem(historyLength: number | undefined): string | undefined {
  if (historyLength === undefined || historyLength >= 0) return undefined;
  return `historyLength must be 0 or more (got ${historyLength})`;
}

export function checkHistoryLength(historyLength: number | undefined): void {
  const problem = historyLengthProblem(historyLength);
  if (problem !== undefined) throw new RequestMalformedError(problem);
}
