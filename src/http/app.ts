import express, { type Express } from "express";
import {
  ServerCallContext,
  STATE_HEADERS_KEY,
  type ServerCallContextBuilder,
  type ServerCallContextBuilderOptions,
} from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { JSONRPC_PATH, REST_PATH } from "../a2a/card/agent-card.js";
import { WORKSPACES_PATH } from "../config/workspaces.js";
import { mountA2a, type A2aSurface } from "./a2a-routes.js";
import { mountWorkspaces, type WorkspaceSurface } from "./workspace-routes.js";
import { mountWorkspacesPage } from "./workspaces-page.js";
import { mountHooks } from "./hooks-route.js";
import { mountTriggersAdmin } from "./triggers-admin-route.js";
import { activatedExtensions } from "../contract/extensions.js";
import { DEFAULT_TRUSTED_PROXIES } from "../config/schema.js";
import { Authenticator } from "../auth/decide.js";
import { callerName, CallerUser } from "../identity/caller.js";
import { authRefusalOf, authGate } from "./auth.js";
import { callerOf } from "./caller.js";
import { healthHttpStatus, type HealthReport } from "./health.js";
import { errorAnswer, finalErrorHandler, type Binding } from "./error-handler.js";
import { rememberState } from "./request-state.js";
import { requestIds } from "./request-ids.js";
import { requestSpan } from "./request-spans.js";
import { NO_TRACING, SPAN_STATE_KEY, type TraceSpan, type Tracing } from "../tracing/tracing.js";
import { routeSdkConsole } from "./sdk-console.js";
import { requestLogLevel } from "./request-log-level.js";
import { DEFAULT_KEEP_ALIVE_MS } from "../config/schema.js";
import { HTTP_STATUS, JSONRPC_CODE } from "../contract/wire-codes.js";

/** The agent at the root, or several workspaces each under `/agents/<name>/`. */
export type HttpAppOptions = HttpCommonOptions &
  (A2aSurface | { readonly workspaces: readonly WorkspaceSurface[] });

export interface HttpCommonOptions {
  readonly bodyLimit: number;
  /** Who may call (tokens, OIDC, `allowedLogins`); default: everyone. */
  readonly auth?: Authenticator;
  /** `server.trustedProxies`; default: loopback. */
  readonly trustedProxies?: readonly string[];
  readonly logger: Logger;
  /** `GET /healthz` (public); without it the route answers `{"status":"ok"}`. */
  readonly health?: () => Promise<HealthReport>;
  /** `GET /metrics` in Prometheus format, behind the same gate as the A2A bindings. */
  readonly metrics?: { render(): Promise<string>; readonly contentType: string };
  /** A span per A2A request (default: off). */
  readonly tracing?: Tracing;
  /** `streaming.keepAliveMs` (default 15000; 0: no keep-alive comments). */
  readonly keepAliveMs?: number;
}

/** Key of the caller's name (login, token name, OIDC subject or "anonymous") in `ServerCallContext.state`. */
export const CALLER_STATE_KEY = "caller";

/**
 * Like the SDK's default builder, plus the caller (as the auth gate decided) under
 * `state.caller`, the request's span when it is traced (the parent of the task it starts), and
 * our event extension activated when the client asks for it (the SDK then names it in the
 * answer's `A2A-Extensions` header, `X-A2A-Extensions` for a v0.3 request; gRPC's metadata).
 * Shared by every binding, each finding its request's span its own way.
 */
export function callContext(
  o: ServerCallContextBuilderOptions,
  span: TraceSpan | undefined,
): ServerCallContext {
  const caller = o.user instanceof CallerUser ? callerName(o.user.caller) : "anonymous";
  const context = new ServerCallContext({
    ...(o.extensions !== undefined && { requestedExtensions: o.extensions }),
    ...(o.user !== undefined && { user: o.user }),
    ...(o.tenant !== undefined && { tenant: o.tenant }),
    ...(o.requestedVersion !== undefined && { requestedVersion: o.requestedVersion }),
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, o.headers],
      [CALLER_STATE_KEY, caller],
      ...(span === undefined ? [] : [[SPAN_STATE_KEY, span] as const]),
    ]),
  });
  for (const uri of activatedExtensions(o.extensions)) context.addActivatedExtension(uri);
  return context;
}

/** The HTTP bindings' builder: `callContext`, its state remembered for the limit answers. */
export const contextBuilder: ServerCallContextBuilder = (o) => {
  const context = callContext(o, requestSpan(o.headers));
  rememberState(o.headers, context.state);
  return context;
};

/**
 * The HTTP surface: the agent card (public: a client must discover the agent before it may talk
 * to it), a health check, and the JSON-RPC and HTTP+JSON bindings behind the login gate.
 */
export function createHttpApp(o: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);

  routeSdkConsole(o.logger);
  // The request line holds ids, a status and timings, never a credential: it skips the redaction
  // pass every other record pays (most of a line's cost, docs/BENCHMARKS.md). Same output.
  const requestLog = o.logger.child({}, { redact: { paths: [] } });
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    // The protocol error a JSON answer carries, for the request's one log line.
    let error: ProtocolError | undefined;
    let answer: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      error = protocolError(body);
      answer = body;
      return json(body);
    };
    res.on("finish", () => {
      const path = req.originalUrl.split("?")[0] ?? "";
      const ids = requestIds(req.body, path, answer);
      const level = requestLogLevel({ method: req.method, path, status: res.statusCode, ...ids });
      // The refusal's reason as the caller got it, never the token (http/auth.ts).
      const refused = authRefusalOf(res);
      requestLog[level](
        {
          method: req.method,
          path,
          status: res.statusCode,
          caller: callerName(callerOf(req)),
          ...ids,
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
          ...(error && { error }),
          ...(refused !== undefined && { refused }),
        },
        "request",
      );
    });
    next();
  });

  const health = o.health;
  app.get("/healthz", (_req, res, next) => {
    if (health === undefined) return void res.json({ status: "ok" });
    health().then((report) => {
      res.status(healthHttpStatus(report.status)).json(report);
    }, next);
  });

  const gate = authGate({
    auth: o.auth ?? new Authenticator({}),
    trustedProxies: o.trustedProxies ?? DEFAULT_TRUSTED_PROXIES,
    logger: o.logger,
  });
  const metrics = o.metrics;
  if (metrics !== undefined) {
    app.get("/metrics", gate, (_req, res, next) => {
      metrics.render().then((text) => {
        res.type(metrics.contentType).send(text);
      }, next);
    });
  }
  const deps = {
    gate,
    bodyLimit: o.bodyLimit,
    logger: o.logger,
    tracing: o.tracing ?? NO_TRACING,
    contextBuilder,
    keepAliveMs: o.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
  };
  // Several workspaces: each under its prefix; otherwise the one agent at the root.
  if ("workspaces" in o) {
    mountWorkspacesPage(app, o.workspaces, gate);
    mountWorkspaces(app, o.workspaces, deps);
  } else {
    if (o.hooks) mountHooks(app, o.hooks);
    if (o.triggersAdmin) mountTriggersAdmin(app, o.triggersAdmin, [gate]);
    mountA2a(app, o, deps);
  }

  app.use((req, res) => {
    const message = `No route for ${req.method} ${req.path}`;
    // Under the REST binding, its own error shape; elsewhere, a plain JSON one.
    if (bindingOf(req) === "rest") {
      const answer = errorAnswer(
        "rest",
        { status: HTTP_STATUS.NOT_FOUND, message, jsonRpcCode: JSONRPC_CODE.METHOD_NOT_FOUND },
        null,
      );
      return void res.status(HTTP_STATUS.NOT_FOUND).type("application/a2a+json").json(answer.body);
    }
    res.status(HTTP_STATUS.NOT_FOUND).json({ error: "not_found", message });
  });
  app.use(finalErrorHandler({ bodyLimit: o.bodyLimit, logger: o.logger, bindingOf }));
  return app;
}

const underPath = (url: string, base: string): boolean =>
  url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);

/** `/agents/<name>` at the start of a path: a workspace's bindings live under it. */
const WORKSPACE_PREFIX = new RegExp(`^${WORKSPACES_PATH}/[^/?]+(?=/)`);

/** The binding a request was addressed to (a workspace's too), for the shape of its error answer. */
const bindingOf = (req: { originalUrl: string }): Binding => {
  const url = req.originalUrl.replace(WORKSPACE_PREFIX, "");
  return underPath(url, JSONRPC_PATH) ? "jsonrpc" : underPath(url, REST_PATH) ? "rest" : "plain";
};

interface ProtocolError {
  code: unknown;
  message: string;
}

/**
 * `{error: {code, message}}` of a JSON-RPC or REST error answer, or the bare `{code, message}`
 * of a v0.3 REST one (the message cut to 300).
 */
export function protocolError(body: unknown): ProtocolError | undefined {
  const wrapped = (body as { error?: unknown } | null)?.error;
  const bare = typeof (body as { code?: unknown } | null)?.code === "number" ? body : undefined;
  const error = wrapped ?? bare;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message: typeof message === "string" ? message.slice(0, 300) : "" };
}
