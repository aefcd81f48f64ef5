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
import { agentCardJson, JSONRPC_PATH, REST_PATH } from "../a2a/card.js";
import { jsonBody } from "./body.js";
import { allowedLoginsGate, callerLogin, callerName, userFor } from "./caller.js";

export interface HttpAppOptions {
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  readonly bodyLimit: number;
  readonly allowedLogins?: readonly string[] | undefined;
  readonly logger: Logger;
}

/** Key of the caller's login (or "anonymous") in `ServerCallContext.state`. */
export const CALLER_STATE_KEY = "caller";

/** Like the SDK's default builder, plus the caller under `state.caller`. */
const contextBuilder: ServerCallContextBuilder = (o) => {
  const headerValue = o.headers["tailscale-user-login"];
  const login =
    typeof headerValue === "string" && headerValue.trim() ? headerValue.trim() : undefined;
  return new ServerCallContext({
    ...(o.extensions !== undefined && { requestedExtensions: o.extensions }),
    ...(o.user !== undefined && { user: o.user }),
    ...(o.tenant !== undefined && { tenant: o.tenant }),
    ...(o.requestedVersion !== undefined && { requestedVersion: o.requestedVersion }),
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, o.headers],
      [CALLER_STATE_KEY, callerName(login)],
    ]),
  });
};

/**
 * The HTTP surface: the agent card (public: a client must discover the agent before it may talk
 * to it), a health check, and the JSON-RPC and HTTP+JSON bindings behind the login gate.
 */
export function createHttpApp(o: HttpAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      o.logger.info(
        {
          method: req.method,
          path: req.originalUrl.split("?")[0],
          status: res.statusCode,
          caller: callerName(callerLogin(req)),
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        },
        "request",
      );
    });
    next();
  });

  const cardJson = agentCardJson(o.card);
  app.get(["/.well-known/agent-card.json", "/.well-known/agent-card"], (_req, res) => {
    res.json(cardJson);
  });
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });

  const gate = allowedLoginsGate(o.allowedLogins);
  const common = { requestHandler: o.requestHandler, userBuilder: userFor, contextBuilder };
  app.use(JSONRPC_PATH, gate, ...jsonBody(o.bodyLimit, "jsonrpc"), jsonRpcHandler(common));
  app.use(REST_PATH, gate, ...jsonBody(o.bodyLimit, "rest"), restHandler(common));

  app.use((req, res) => {
    res.status(404).json({ error: "not_found", message: `No route for ${req.method} ${req.path}` });
  });
  return app;
}
