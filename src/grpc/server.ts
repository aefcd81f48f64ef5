/**
 * The gRPC binding's server: the A2A service on its own port, over the request handler the HTTP
 * bindings use, behind the interceptors (log, auth, request guard, answers), started and stopped.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { Tracing } from "../tracing/tracing.js";
import { answersInterceptor } from "./answers.js";
import { authInterceptor, callerOfCall, type GrpcAuthOptions } from "./auth.js";
import { loggingInterceptor } from "./log.js";
import { requestGuard } from "./request-guard.js";
import { tracingInterceptor } from "./tracing.js";
import { a2aServiceDefinition, a2aServiceImplementation } from "./service.js";
import type { TlsMaterial } from "./tls.js";

export interface GrpcServerOptions {
  readonly host: string;
  /** 0: any free port (tests); the bound one is `port` of the result. */
  readonly port: number;
  /** Unset: plaintext (h2c). */
  readonly tls?: TlsMaterial | undefined;
  /** Largest request message (`server.bodyLimit`); a larger one is refused RESOURCE_EXHAUSTED. */
  readonly maxMessageBytes: number;
  readonly requestHandler: A2ARequestHandler;
  readonly auth: GrpcAuthOptions;
  readonly logger: Logger;
  /** A span per call (default: off). */
  readonly tracing?: Tracing | undefined;
  /** `streaming.keepAliveMs`: HTTP/2 PING on each connection at this interval (0: grpc-js's default, none). */
  readonly keepAliveMs?: number;
}

/** How long a ping may go unanswered before the connection counts as dead (grpc-js's default). */
const KEEPALIVE_TIMEOUT_MS = 20_000;

/**
 * The server's keepalive: an HTTP/2 PING frame on every connection each `keepAliveMs`, the gRPC
 * equivalent of the HTTP bindings' SSE comments. A server stream (SendStreamingMessage,
 * SubscribeToTask) silent while a tool runs still has bytes on its connection, so a NAT or proxy
 * keeps it, and a peer that vanished is found. grpc-js's server takes client pings at any rate.
 */
export const keepaliveOptions = (keepAliveMs: number | undefined): Record<string, number> =>
  keepAliveMs === undefined || keepAliveMs <= 0
    ? {}
    : {
        "grpc.keepalive_time_ms": keepAliveMs,
        "grpc.keepalive_timeout_ms": KEEPALIVE_TIMEOUT_MS,
      };

/** What `/healthz` says of the binding. */
export interface GrpcHealth {
  readonly address: string;
  readonly tls: boolean;
  /** False once shutdown began. */
  readonly serving: boolean;
}

export interface RunningGrpcServer {
  /** `host:port` it listens on (not the advertised `publicAddress`). */
  readonly address: string;
  readonly port: number;
  health(): GrpcHealth;
  /** Stops taking calls (new connections and new calls are refused); resolves once open ones end. */
  drain(): Promise<void>;
  /** Ends the calls still open; `drain()` then resolves. */
  cut(): void;
}

export class GrpcListenError extends Error {}

const hostPort = (host: string, port: number) =>
  `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;

export async function startGrpcServer(o: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server({
    "grpc.max_receive_message_length": o.maxMessageBytes,
    ...keepaliveOptions(o.keepAliveMs),
    // The log first: it must see the statuses grpc-js sends by itself (see loggingInterceptor).
    interceptors: [
      loggingInterceptor(o.logger, callerOfCall),
      // Off: not even mounted, as on HTTP.
      ...(o.tracing?.enabled ? [tracingInterceptor(o.tracing, callerOfCall)] : []),
      authInterceptor(o.auth, o.logger),
      requestGuard,
      answersInterceptor(o.logger),
    ],
  });
  server.addService(a2aServiceDefinition(), a2aServiceImplementation(o.requestHandler));
  const credentials = o.tls
    ? ServerCredentials.createSsl(null, [{ private_key: o.tls.key, cert_chain: o.tls.cert }], false)
    : ServerCredentials.createInsecure();
  const wanted = hostPort(o.host, o.port);
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(wanted, credentials, (err, bound) => (err ? reject(err) : resolve(bound))),
    );
  } catch (err) {
    server.forceShutdown();
    throw new GrpcListenError(`Cannot listen on ${wanted} for gRPC: ${(err as Error).message}`);
  }
  const address = hostPort(o.host, port);
  let draining: Promise<void> | undefined;
  return {
    address,
    port,
    health: () => ({ address, tls: o.tls !== undefined, serving: draining === undefined }),
    drain: () => (draining ??= new Promise<void>((resolve) => server.tryShutdown(() => resolve()))),
    cut: () => server.forceShutdown(),
  };
}
