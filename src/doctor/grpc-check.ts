import { grpcAddress } from "../a2a/card/agent-card.js";
import type { Config } from "../config/schema.js";
import { loadTls, TlsConfigError } from "../grpc/tls.js";
import type { CheckResult } from "./check-result.js";

const ANY_HOST = /^(0\.0\.0\.0|::|localhost)$/i;

/**
 * The gRPC binding: off, or where it listens and is advertised; its own port (not the HTTP one on
 * the same address); its TLS key and certificate readable, matching and valid now.
 */
export async function checkGrpc(config: Config): Promise<CheckResult> {
  const { grpc } = config.server;
  if (grpc.port === undefined)
    return { name: "grpc", ok: true, detail: "off (server.grpc.port unset)" };
  const where = `${grpc.host}:${grpc.port} (card: ${grpcAddress(grpc, grpc.port)})`;
  const sameAddress =
    grpc.host === config.server.host ||
    ANY_HOST.test(grpc.host) ||
    ANY_HOST.test(config.server.host);
  if (grpc.port === config.server.port && sameAddress) {
    return {
      name: "grpc",
      ok: false,
      detail: `server.grpc.port ${grpc.port} is the HTTP port (server.port) too`,
      fix: "give server.grpc.port a port of its own",
    };
  }
  if (grpc.tls === undefined) return { name: "grpc", ok: true, detail: `${where}, plaintext` };
  try {
    const tls = await loadTls(grpc.tls, config.claude.cwd);
    const until = tls.validTo.toISOString().slice(0, 10);
    return {
      name: "grpc",
      ok: true,
      detail: `${where}, TLS: ${tls.subject}, valid until ${until}`,
    };
  } catch (err) {
    if (!(err instanceof TlsConfigError)) throw err;
    return {
      name: "grpc",
      ok: false,
      detail: err.message,
      fix: "point server.grpc.tls.keyFile and certFile at a PEM key and its valid certificate",
    };
  }
}
