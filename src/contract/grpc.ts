/**
 * What the gRPC binding says to a client on its own account (every other answer is the A2A SDK's
 * status for an A2A error, the same error the other bindings answer; an auth refusal carries the
 * text every binding gives it, `refusalMessage` of auth-messages.ts).
 */

/** INVALID_ARGUMENT (RequestMalformed): the request's bytes are not its protobuf message. */
export const notDecodable = (rpc: string, reason: string): string =>
  `The request is not a valid ${rpc} request message (${reason.slice(0, 200)}).`;

/** INTERNAL/UNKNOWN answers carry this instead of the server's own error text (logged). */
export const GRPC_INTERNAL_ERROR = "Internal error.";

/**
 * FAILED_PRECONDITION (VersionNotSupported): a call without `a2a-version: 1.0`. The v0.3 gRPC
 * service is another protobuf package, not served here, so `server.compat.v03` changes nothing.
 */
export function grpcVersionRefused(requested: string | undefined): string {
  const send = "Send the metadata a2a-version: 1.0 with every call.";
  if (requested === undefined) {
    return (
      "This call has no a2a-version metadata, which A2A reads as protocol version 0.3: this " +
      `gRPC binding speaks A2A 1.0 only. ${send}`
    );
  }
  return (
    `The requested A2A protocol version '${requested.slice(0, 40)}' is not supported. ` +
    `Supported versions: 1.0. ${send}`
  );
}
