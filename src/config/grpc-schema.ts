import { z } from "zod";
import { intBetween, name } from "./schema-parts.js";

/**
 * `host:port` (a bracketed IPv6 address allowed), what the JS SDK's gRPC client dials, or the same
 * behind `grpc://`, `grpcs://`, `http://` or `https://`, what clients that parse it as a URL need.
 */
const GRPC_ADDRESS = /^((grpcs?|https?):\/\/)?(\[[0-9A-Fa-f:.]+\]|[^\s:/[\]]+):\d{1,5}$/;

/** `server.grpc`: the gRPC binding, off unless a port is set. */
export const grpcSchema = z.strictObject({
  port: intBetween(1, 65535)
    .optional()
    .describe(
      "TCP port of the gRPC binding, its own (never server.port). Set: the binding is on and " +
        "the card lists it. Unset: no gRPC binding.",
    ),
  host: name()
    .default("127.0.0.1")
    .describe(
      "Bind address of the gRPC binding (--host does not change it). Keep the loopback " +
        "default unless callers must authenticate (server.auth.tokens or server.auth.oidc, or " +
        "allowUnauthenticatedRemote): the same rule as server.host.",
    ),
  publicAddress: name()
    .regex(GRPC_ADDRESS, {
      error: 'expected "host:port" or "grpc://host:port", e.g. "agent.example.com:50051"',
    })
    .optional()
    .describe(
      "Address advertised in the agent card's GRPC interface: host:port (what the JS SDK's " +
        "client dials), or grpc:// (grpcs://, http://, https://) host:port for clients that " +
        "read it as a URL. Default: `<host>:<port>` (localhost for a wildcard host).",
    ),
  tls: z
    .strictObject({
      keyFile: name().describe(
        "PEM private key; a relative path resolves against claude.cwd. A missing, non-PEM, " +
          "mismatched or expired key or certificate stops startup, naming the file.",
      ),
      certFile: name().describe(
        "PEM certificate (chain) of keyFile; a relative path resolves against claude.cwd.",
      ),
    })
    .optional()
    .describe("Serve gRPC over TLS with this key and certificate. Unset: plaintext, h2c."),
});
