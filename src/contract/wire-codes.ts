import { A2A_ERROR_CODE, HTTP_STATUS as SDK_HTTP_STATUS } from "@a2a-js/sdk/errors";

/**
 * Every JSON-RPC `error.code` this server answers, one table: JSON-RPC 2.0's own and A2A 1.0's
 * (the SDK's `A2A_ERROR_CODE`), and the two this server adds. No code is written as a number
 * anywhere else.
 */
export const JSONRPC_CODE = {
  ...A2A_ERROR_CODE,
  /** v1.1's TaskGenerationMismatchError (docs/protocol.md "Generations"). */
  TASK_GENERATION_MISMATCH: -32010,
  /**
   * A per-caller limit: A2A 1.0 defines none for "not now, later", and reusing one of its codes
   * would say something false (UnsupportedOperation: never retry). So it is from JSON-RPC's
   * implementation-defined server range; the ErrorInfo reason is what identifies it.
   */
  LIMIT_EXCEEDED: -32029,
} as const;

/**
 * Every HTTP status this server answers (the REST binding, the card, health, the console) or
 * reads (a webhook's answer), one table: the SDK's `HTTP_STATUS` and the ones it lacks.
 */
export const HTTP_STATUS = {
  ...SDK_HTTP_STATUS,
  NOT_MODIFIED: 304,
  FORBIDDEN: 403,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;
