/**
 * The JSON-RPC binding over raw HTTP, for what the official client never sends: a v0.3 call, a
 * header left out or added, an odd id. One POST to `<base>/a2a/jsonrpc`.
 */

/** The headers of a v1.0 JSON-RPC call. */
export const V1_JSON = { "Content-Type": "application/json", "A2A-Version": "1.0" } as const;
/** The headers of a call without `A2A-Version`: read as v0.3. */
export const V03_JSON = { "Content-Type": "application/json" } as const;

/** A JSON-RPC request body. */
export const rpcBody = (method: string, params: unknown, id: number | string = 1): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** POSTs `method(params)` to `base`'s JSON-RPC endpoint with `headers` (default: v1.0). */
export const postRpc = (
  base: string,
  method: string,
  params: unknown,
  o: { readonly id?: number | string; readonly headers?: Record<string, string> } = {},
): Promise<Response> =>
  fetch(`${base}/a2a/jsonrpc`, {
    method: "POST",
    headers: o.headers ?? V1_JSON,
    body: rpcBody(method, params, o.id),
  });
