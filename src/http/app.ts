import express, { type Express } from "express";
import type { AgentCard } from "@a2a-js/sdk";
import {
  ServerCallContext,
  STATE_HEADERS_KEY,
  type A2ARequestHandler,
  type ServerCallContextBuilder,
} from "@a2a-js/sdk/server";
import { jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import type { Logger } from "pino";
import { cardDocument, JSONRPC_PATH, REST_PATH } from "../a2a/contract/card.js";
import { activatedExtensions } from "../a2a/contract/extension.js";
import { jsonBody } from "./body.js";
import { DEFAULT_TRUSTED_PROXIES } from "../config/schema.js";
import { authGate, TokenVerifier } from "./auth.js";
import { callerName, CallerUser } from "../identity/caller.js";
import { callerOf, userFor } from "./caller.js";
import { agentCardRoute } from "./card-route.js";
import type { HealthReport } from "./health.js";
import { errorAnswer, finalErrorHandler, type Binding } from "./error-handler.js";
import {
  jsonRpcAnswers,
  jsonRpcNotifications,
  jsonRpcShapeGuard,
  restAnswers,
  restShapeGuard,
} from "./request-guards.js";
import { requestIds } from "./request-ids.js";
import { restContentTypeStatus } from "./rest-errors.js";
import { routeSdkConsole } from "./sdk-console.js";

export interface HttpAppOptions {
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  readonly bodyLimit: number;
  readonly allowedLogins?: readonly string[] | undefined;
  /** `server.auth.tokens`, read; default: none (no token required). */
  readonly tokens?: TokenVerifier;
  /** `server.trustedProxies`; default: loopback. */
  readonly trustedProxies?: readonly string[];
  readonly logger: Logger;
  /** When the card was built (its `Last-Modified`). Default: now. */
  readonly cardBuiltAt?: Date;
  /** `GET /healthz` (public); without it the route answers `{"status":"ok"}`. */
  readonly health?: () => Promise<HealthReport>;
  /** `GET /metrics` in Prometheus format, behind the same gate as the A2A bindings. */
  readonly metrics?: { render(): Promise<string>; readonly contentType: string };
}

/** Key of the caller's name (login, token name or "anonymous") in `ServerCallContext.state`. */
export const CALLER_STATE_KEY = "caller";

/**
 * Like the SDK's default builder, plus the caller (as the auth gate decided) under
 * `state.caller`, and our event extension activated when the client asks for it (the SDK then
 * names it in the answer's `A2A-Extensions` header, `X-A2A-Extensions` for a v0.3 request).
 */
export const contextBuilder: ServerCallContextBuilder = (o) => {
  const caller = o.user instanceof CallerUser ? callerName(o.user.caller) : "anonymous";
  const context = new ServerCallContext({
    ...(o.extensions !== undefined && { requestedExtensions: o.extensions }),
    ...(o.user !== undefined && { user: o.user }),
    ...(o.tenant !== undefined && { tenant: o.tenant }),
    ...(o.requestedVersion !== undefined && { requestedVersion: o.requestedVersion }),
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, o.headers],
      [CALLER_STATE_KEY, caller],
    ]),
  });
  for (const uri of activatedExtensions(o.extensions)) context.addActivatedExtension(uri);
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
      o.logger.info(
        {
          method: req.method,
          path: req.originalUrl.split("?")[0],
          status: res.statusCode,
          caller: callerName(callerOf(req)),
          ...requestIds(req.body, req.originalUrl.split("?")[0] ?? "", answer),
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
          ...(error && { error }),
        },
        "request",
      );
    });
    next();
  });

  const card = agentCardRoute(cardDocument(o.card, o.cardBuiltAt ?? new Date()));
  app.get(["/.well-known/agent-card.json", "/.well-known/agent-card"], card);
  const health = o.health;
  app.get("/healthz", (_req, res, next) => {
    if (health === undefined) return void res.json({ status: "ok" });
    health().then((report) => {
      res.status(report.status === "ok" ? 200 : 503).json(report);
    }, next);
  });

  const gate = authGate({
    tokens: o.tokens ?? TokenVerifier.from([]),
    allowedLogins: o.allowedLogins,
    trustedProxies: o.trustedProxies ?? DEFAULT_TRUSTED_PROXIES,
  });
  const metrics = o.metrics;
  if (metrics !== undefined) {
    app.get("/metrics", gate, (_req, res, next) => {
      metrics.render().then((text) => {
        res.type(metrics.contentType).send(text);
      }, next);
    });
  }
  const common = { requestHandler: o.requestHandler, userBuilder: userFor, contextBuilder };
  app.use(
    JSONRPC_PATH,
    gate,
    jsonBody(o.bodyLimit, "jsonrpc"),
    jsonRpcNotifications,
    jsonRpcAnswers(o.logger),
    jsonRpcShapeGuard,
    jsonRpcHandler(common),
  );
  app.use(
    REST_PATH,
    gate,
    restContentTypeStatus,
    restAnswers(o.logger),
    jsonBody(o.bodyLimit, "rest"),
    restShapeGuard,
    restHandler(common),
  );

  app.use((req, res) => {
    const message = `No route for ${req.method} ${req.path}`;
    // Under the REST binding, its own error shape; elsewhere, a plain JSON one.
    if (bindingOf(req) === "rest") {
      const answer = errorAnswer("rest", { status: 404, message, jsonRpcCode: -32601 }, null);
      return void res.status(404).type("application/a2a+json").json(answer.body);
    }
    res.status(404).json({ error: "not_found", message });
  });
  app.use(finalErrorHandler({ bodyLimit: o.bodyLimit, logger: o.logger, bindingOf }));
  return app;
}

const underPath = (url: string, base: string): boolean =>
  url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);

/** The binding a request was addressed to, for the shape of its error answer. */
const bindingOf = (req: { originalUrl: string }): Binding =>
  underPath(req.originalUrl, JSONRPC_PATH)
    ? "jsonrpc"
    : underPath(req.originalUrl, REST_PATH)
      ? "rest"
      : "plain";

interface ProtocolError {
  code: unknown;
  message: string;
}

/** `{error: {code, message}}` of a JSON-RPC or REST error answer (the message cut to 300). */
export function protocolError(body: unknown): ProtocolError | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code, message: typeof message === "string" ? message.slice(0, 300) : "" };
}
