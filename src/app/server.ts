import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent, AgentOptions } from "./agent.js";
import type { Config } from "../config/schema.js";
import { withRealPaths } from "../config/real-paths.js";
import { workspaceUrl } from "../config/workspaces.js";
import type { A2aSurface } from "../http/a2a-routes.js";
import { createHttpApp } from "../http/app.js";
import { answerClientErrorsAsJson } from "../http/client-errors.js";
import type { HealthReport } from "../http/health.js";
import { workspacesHealth } from "../http/workspace-health.js";
import { workspaceForbidden, type WorkspaceSurface } from "../http/workspace-routes.js";
import type { GrpcAuthOptions } from "../grpc/auth.js";
import type { Caller } from "../identity/caller.js";
import { mergeExpositions } from "../metrics/merge.js";
import { createServedAgents, type ServedAgent } from "./served-agents.js";
import type { Authenticator } from "../auth/decide.js";
import { authenticatorFrom } from "../auth/from-config.js";
import { AuthConfigError } from "../auth/verifier.js";
import { withGrpc } from "../http/health.js";
import { GrpcListenError, startGrpcServer, type RunningGrpcServer } from "../grpc/server.js";
import { loadTls, TlsConfigError, type TlsMaterial } from "../grpc/tls.js";
import type { SessionPool } from "../sessions/pool.js";
import { checkBindSafety } from "../config/bind-safety.js";

export type ServerOptions = AgentOptions;

export interface RunningServer {
  /** Base URL the server listens on (not the advertised publicUrl). */
  readonly url: string;
  readonly port: number;
  /** The gRPC binding, when `server.grpc.port` is set: the `host:port` it listens on. */
  readonly grpc?: { readonly address: string; readonly port: number };
  /** The first agent's pool (the root one's, or the first workspace's). */
  readonly pool: SessionPool;
  /** With `workspaces`: each one, its directory, its URL (on `url`, with a trailing slash) and its pool. */
  readonly workspaces: readonly {
    readonly name: string;
    readonly cwd: string;
    readonly url: string;
    readonly pool: SessionPool;
  }[];
  close(): Promise<void>;
}

/** How long open streams get to deliver their tasks' last events at shutdown. */
const STREAM_FLUSH_MS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

import { StartupError } from "../common/startup-error.js";

export { StartupError };

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

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // Real paths from here on: what the runtime compares against (config/real-paths.ts).
  const o = { ...options, config: await withRealPaths(options.config) };
  const { config, logger } = o;
  checkBindSafety(config.server);
  const auth = readAuth(config.server);
  const tls = await readGrpcTls(config);
  const cwd = config.claude.cwd;
  const served = await createServedAgents(o);
  const agents = served.agents.map((a) => a.agent);
  const closeAgents = async () => {
    await Promise.all(agents.map((a) => a.close()));
    await served.closeShared();
  };
  // gRPC serves the first agent: the root one, or the first workspace (docs/workspaces.md "Workspaces").
  const first = served.agents[0] as ServedAgent;
  const grpc = await startGrpc(o, {
    requestHandler: first.agent.requestHandler,
    auth,
    tls,
    tracing: first.agent.tracing,
    ...(first.name !== undefined && {
      access: {
        allows: (caller: Caller) => first.allows(caller),
        refusal: workspaceForbidden(first.name),
      },
    }),
  }).catch(async (err: unknown) => {
    await closeAgents();
    throw err;
  });
  const app = createHttpApp({
    bodyLimit: config.server.bodyLimit,
    auth,
    trustedProxies: config.server.trustedProxies,
    logger: logger.child({ component: "http" }),
    health: async () => withGrpc(await health(served.agents, config), grpc?.health()),
    metrics: metricsOf(agents),
    tracing: first.agent.tracing,
    keepAliveMs: config.streaming.keepAliveMs,
    ...surfaces(served.agents),
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
    await closeAgents();
    throw err;
  }
  const { port } = http.address() as AddressInfo;
  const host = config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  const workspaces = config.workspaces.map((w) => ({
    name: w.name,
    cwd: w.cwd,
    // With its trailing slash: a client resolves the card's well-known path against it.
    url: `${workspaceUrl(url, w.name)}/`,
  }));
  logger.info(
    {
      url,
      // With workspaces, the root's console lists them (http/workspaces-page.ts).
      console: `${url}/console/`,
      publicUrl: config.server.publicUrl,
      ...(workspaces.length === 0 ? { cwd } : { workspaces }),
      ...(grpc && { grpc: grpc.address }),
    },
    "claude-a2a listening",
  );
  // Serving: each session map's startup sweep begins now, in the background.
  for (const agent of agents) agent.pool.sweepStaleSessions();
  // And the schedules: what they missed while no server ran first, then their timers.
  for (const a of served.agents) await a.schedules?.start();

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ...(grpc && { grpc: { address: grpc.address, port: grpc.port } }),
    pool: first.agent.pool,
    workspaces: served.agents.flatMap((a, i) => {
      const w = workspaces[i];
      return a.name === undefined || w === undefined ? [] : [{ ...w, pool: a.agent.pool }];
    }),
    close: () =>
      (closing ??= (async () => {
        // Stop accepting (both bindings), end the agents (running tasks end and their open
        // streams receive it), give those streams a moment to flush and close, then cut what is
        // left.
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        const grpcStopped = grpc?.drain() ?? Promise.resolve();
        await Promise.all(agents.map((a) => a.closeSessions()));
        await Promise.race([Promise.all([stopped, grpcStopped]), delay(STREAM_FLUSH_MS)]);
        http.closeAllConnections();
        grpc?.cut();
        await Promise.all([stopped, grpcStopped]);
        await closeAgents();
      })()),
  };
}

/** The HTTP surface: the root agent's card and handler, or each workspace's under its prefix. */
function surfaces(served: readonly ServedAgent[]): A2aSurface | { workspaces: WorkspaceSurface[] } {
  const root = served.find((a) => a.name === undefined);
  const surface = (a: ServedAgent): A2aSurface => ({
    card: a.agent.card,
    requestHandler: a.agent.requestHandler,
    ...(a.compatV03 && { compatV03: a.compatV03 }),
    ...(a.hooks && { hooks: a.hooks }),
    triggersAdmin: a.triggers,
  });
  if (root !== undefined) return surface(root);
  return {
    workspaces: served.map((a) => ({
      ...surface(a),
      name: a.name ?? "",
      url: a.config.server.publicUrl,
      allows: (caller) => a.allows(caller),
    })),
  };
}

/** `GET /healthz`: the root agent's report, or every workspace's and the whole. */
async function health(served: readonly ServedAgent[], config: Config): Promise<HealthReport> {
  const reports = await Promise.all(
    served.map(async (a) => ({ name: a.name, report: await a.agent.health() })),
  );
  const [only] = reports;
  if (only !== undefined && only.name === undefined) return only.report;
  return workspacesHealth(
    reports.map((r) => ({ name: r.name ?? "", report: r.report })),
    config.sessions.maxLive,
  );
}

/** `GET /metrics`: one agent's registry, or every workspace's merged (each labelled `workspace`). */
function metricsOf(agents: readonly Agent[]): { render(): Promise<string>; contentType: string } {
  const [only] = agents;
  if (only !== undefined && agents.length === 1 && only.workspace === undefined) {
    return only.metrics;
  }
  return {
    render: async () => mergeExpositions(await Promise.all(agents.map((a) => a.metrics.render()))),
    contentType: only?.metrics.contentType ?? "text/plain",
  };
}

/** The gRPC binding over the agent's request handler, when `server.grpc.port` is set. */
async function startGrpc(
  o: ServerOptions,
  parts: Pick<Agent, "requestHandler" | "tracing"> & {
    auth: Authenticator;
    tls: TlsMaterial | undefined;
    access?: GrpcAuthOptions["access"];
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
      auth: {
        auth: parts.auth,
        trustedProxies: server.trustedProxies,
        ...(parts.access && { access: parts.access }),
      },
      tracing: parts.tracing,
      keepAliveMs: o.config.streaming.keepAliveMs,
      logger: o.logger.child({ component: "grpc" }),
    });
  } catch (err) {
    if (err instanceof GrpcListenError) throw new StartupError(err.message);
    throw err;
  }
}
