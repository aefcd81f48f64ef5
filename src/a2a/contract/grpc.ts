/**
 * What the gRPC binding says to a client on its own account (every other answer is the A2A SDK's
 * status for an A2A error, the same error the other bindings answer).
 */

/** UNAUTHENTICATED: no `authorization` metadata, while tokens are configured. */
export const GRPC_TOKEN_REQUIRED =
  "This agent requires the metadata authorization: Bearer <token>.";

/** UNAUTHENTICATED: an `authorization` that is not one valid bearer token. */
export const GRPC_TOKEN_INVALID = "The bearer token is not valid.";

/** PERMISSION_DENIED: `server.allowedLogins` does not list the caller's login. */
export const GRPC_LOGIN_REFUSED = "This login may not call the agent.";

/** INVALID_ARGUMENT (RequestMalformed): the request's bytes are not its protobuf message. */
export const notDecodable = (rpc: string, reason: string): string =>
  `The request is not a valid ${rpc} request message (${reason.slice(0, 200)}).`;

/** INTERNAL/UNKNOWN answers carry this instead of the server's own error text (logged). */
export const GRPC_INTERNAL_ERROR = "Internal error.";
