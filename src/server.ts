import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAgent, type Agent, type AgentOptions } from "./agent.js";
import { legacyAgentCardJson } from "./a2a/contract/legacy-card.js";
import type { Config } from "./config/schema.js";
import { createHttpApp } from "./http/app.js";
import { answerClientErrorsAsJson } from "./http/client-errors.js";
import { CardSigningError } from "./a2a/card/signing.js";
import type { Authenticator } from "./auth/decide.js";
import { authenticatorFrom } from "./auth/from-config.js";
import { AuthConfigError } from "./auth/verifier.js";
import { withGrpc } from "./http/health.js";
import { GrpcListenError, startGrpcServer, type RunningGrpcServer } from "./grpc/server.js";
import { loadTls, TlsConfigError, type TlsMaterial } from "./grpc/tls.js";
import type { SessionPool } from "./sessions/pool.js";

export type ServerOptions = AgentOptions;

export interface RunningServer {
  /** Base URL the server listens on (not the advertised publicUrl). */
  readonly url: string;
  readonly port: number;
  /** The gRPC binding, when `server.grpc.port` is set: the `host:port` it listens on. */
  readonly grpc?: { readonly address: string; readonly port: number };
  readonly pool: SessionPool;
  close(): Promise<void>;
}

/** How long open streams get to deliver their tasks' last events at shutdown. */
const STREAM_FLUSH_MS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

export class StartupError extends Error {}

/**
 * Refuses to expose an unauthenticated agent beyond loopback unless the operator says so. Only
 * bearer tokens (static or OpenID Connect) authenticate here: `allowedLogins` trusts headers that
 * only the local proxy may set, which proves nothing about a peer on another machine.
 */
export function checkBindSafety(server: Config["server"]): void {
  const unsafe = unsafeBind(server);
  if (unsafe === undefined) return;
  throw new StartupError(
    `Refusing to listen on ${unsafe.host} (${unsafe.key}) without authentication: anyone who ` +
      `can reach that address could drive Claude Code in your workspace. Either keep ` +
      `${unsafe.key} on 127.0.0.1 (and reach it through "tailscale serve", optionally with ` +
      `server.allowedLogins), or set server.auth.tokens (bearer tokens) or server.auth.oidc ` +
      `(OpenID Connect), or set ` +
      `server.allowUnauthenticatedRemote to true if a proxy in front authenticates every request.`,
  );
}

/** The first bind address (HTTP, then gRPC when on) that is unsafe for the auth configured. Pure. */
export function unsafeBind(server: Config["server"]): { key: string; host: string } | undefined {
  const bearer = server.auth.tokens.length > 0 || server.auth.oidc !== undefined;
  if (bearer || server.allowUnauthenticatedRemote) return undefined;
  const binds = [
    { key: "server.host", host: server.host },
    ...(server.grpc.port === undefined
      ? []
      : [{ key: "server.grpc.host", host: server.grpc.host }]),
  ];
  return binds.find((b) => !LOOPBACK.test(b.host));
}

/** `server.grpc.tls`, read and checked; undefined when gRPC is off or plaintext. */
async function readGrpcTls(config: Config): Promise<TlsMaterial | undefined> {
  const { grpc } = config.server;
  if (grpc.port === undefined || grpc.tls === undefined) return undefined;
  try {
    return await loadTls(grpc.tls, config.claude.cwd);
  } catch (err) {
    if (err instanceof TlsConfigError) throw new StartupError(err.message);
    throw err;
  }
}

/** The configured authentication, read (an unset token variable or a bad OIDC key stops startup). */
function readAuth(server: Config["server"]): Authenticator {
  try {
    return authenticatorFrom(server);
  } catch (err) {
    if (err instanceof AuthConfigError) throw new StartupError(err.message);
    throw err;
  }
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const { config, logger } = o;
  checkBindSafety(config.server);
  const auth = readAuth(config.server);
  const tls = await readGrpcTls(config);
  const cwd = config.claude.cwd;
  const agent = await createAgent(o).catch((err: unknown) => {
    throw err instanceof CardSigningError ? new StartupError(err.message) : err;
  });
  const { card, requestHandler, pool, metrics } = agent;
  let compatV03: { legacyCard: Record<string, unknown> } | undefined;
  try {
    if (config.server.compat.v03) compatV03 = { legacyCard: await legacyAgentCardJson(card) };
  } catch (err) {
    await agent.close();
    throw new StartupError(`server.compat.v03: ${(err as Error).message}`);
  }
  const grpc = await startGrpc(o, { requestHandler, auth, tls, tracing: agent.tracing }).catch(
    async (err: unknown) => {
      await agent.close();
      throw err;
    },
  );
  const app = createHttpApp({
    card,
    requestHandler,
    bodyLimit: config.server.bodyLimit,
    auth,
    trustedProxies: config.server.trustedProxies,
    logger: logger.child({ component: "http" }),
    health: async () => withGrpc(await agent.health(), grpc?.health()),
    metrics,
    ...(compatV03 && { compatV03 }),
    tracing: agent.tracing,
  });

  const wanted = config.server.port;
  const http: Server = app.listen(wanted, config.server.host);
  answerClientErrorsAsJson(http, logger.child({ component: "http" }));
  try {
    await new Promise<void>((resolve, reject) => {
      http.once("listening", resolve);
      http.once("error", (err) =>
        reject(
          new StartupError(`Cannot listen on ${config.server.host}:${wanted}: ${err.message}`),
        ),
      );
    });
  } catch (err) {
    grpc?.cut();
    await agent.close();
    throw err;
  }
  const { port } = http.address() as AddressInfo;
  const host = config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  logger.info(
    { url, publicUrl: config.server.publicUrl, cwd, ...(grpc && { grpc: grpc.address }) },
    "claude-a2a listening",
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ...(grpc && { grpc: { address: grpc.address, port: grpc.port } }),
    pool,
    close: () =>
      (closing ??= (async () => {
        // Stop accepting (both bindings), end the agent (running tasks end and their open
        // streams receive it), give those streams a moment to flush and close, then cut what is
        // left.
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        const grpcStopped = grpc?.drain() ?? Promise.resolve();
        await agent.closeSessions();
        await Promise.race([Promise.all([stopped, grpcStopped]), delay(STREAM_FLUSH_MS)]);
        http.closeAllConnections();
        grpc?.cut();
        await Promise.all([stopped, grpcStopped]);
        await agent.close();
      })()),
  };
}

/** The gRPC binding over the agent's request handler, when `server.grpc.port` is set. */
async function startGrpc(
  o: ServerOptions,
  parts: Pick<Agent, "requestHandler" | "tracing"> & {
    auth: Authenticator;
    tls: TlsMaterial | undefined;
  },
): Promise<RunningGrpcServer | undefined> {
  const { server } = o.config;
  if (server.grpc.port === undefined) return undefined;
  try {
    return await startGrpcServer({
      host: server.grpc.host,
      port: server.grpc.port,
      tls: parts.tls,
      maxMessageBytes: server.bodyLimit,
      requestHandler: parts.requestHandler,
      auth: { auth: parts.auth, trustedProxies: server.trustedProxies },
      tracing: parts.tracing,
      logger: o.logger.child({ component: "grpc" }),
    });
  } catch (err) {
    if (err instanceof GrpcListenError) throw new StartupError(err.message);
    throw err;
  }
}
