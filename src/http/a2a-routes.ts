import type { AgentCard } from "@a2a-js/sdk";
import { CONSOLE_PATH, consoleRouter } from "./console-route.js";
import type { A2ARequestHandler, ServerCallContextBuilder } from "@a2a-js/sdk/server";
import { jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import type { IRouter, RequestHandler } from "express";
import type { Logger } from "pino";
import { cardDocument, jsonCardDocument, JSONRPC_PATH, REST_PATH } from "../a2a/card/agent-card.js";
import type { Tracing } from "../tracing/tracing.js";
import type { TriggerReceiver } from "../triggers/receiver.js";
import type { TriggerOperations } from "../triggers/operations.js";
import { jsonBody } from "./body.js";
import { userFor } from "./caller.js";
import { agentCardRoute, versionedCardRoute } from "./card-route.js";
import { correctJsonAnswers } from "./answer-correctors.js";
import { JSONRPC_ANSWERS, JSONRPC_SSE, REST_ANSWERS, REST_SSE } from "./answer-lists.js";
import { jsonRpcNotifications, jsonRpcShapeGuard, restShapeGuard } from "./request-guards.js";
import { traceRequests } from "./request-spans.js";
import { restEmptyAnswers } from "./rest-empty-answers.js";
import { restHistoryLengthGuard } from "./rest-query-guard.js";
import { sseHeadWithFirstEvent } from "./sse-head.js";
import { correctSseChunks } from "./sse-correctors.js";
import { sseKeepAlive } from "./sse-keep-alive.js";
import { jsonRpcVersionGate, restVersionGate } from "./version-gate.js";
import { withoutEtag } from "./without-etag.js";

/** One A2A agent as HTTP serves it: its card and the request handler behind its bindings. */
export interface A2aSurface {
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  /** When the card was built (its `Last-Modified`). Default: now. */
  readonly cardBuiltAt?: Date;
  /**
   * `server.compat.v03`: also serve A2A v0.3 (and header-less) requests, and `legacyCard` (the
   * card in v0.3's shape, `legacyAgentCardJson`) to a card request that asks for v0.3.
   * Default: v1.0 only.
   */
  readonly compatV03?: { readonly legacyCard: Record<string, unknown> };
  /** Its webhook triggers (`POST /hooks/<trigger>`, docs/triggers.md); unset: none. */
  readonly hooks?: TriggerReceiver;
  /** Its triggers as an operator sees and fires them (`<base>/triggers`); unset: not served. */
  readonly triggersAdmin?: TriggerOperations;
}

/** What every agent's routes share: the auth gate, the body limit, the logger, tracing. */
export interface A2aRouteDeps {
  readonly gate: RequestHandler;
  readonly bodyLimit: number;
  readonly logger: Logger;
  readonly tracing: Tracing;
  readonly contextBuilder: ServerCallContextBuilder;
  /** `streaming.keepAliveMs`: a comment on an SSE answer after this much silence (0: none). */
  readonly keepAliveMs: number;
}

/**
 * Mounts one agent on `router` (the app itself at the root, or a workspace's router under its
 * prefix): the public card, then the JSON-RPC and HTTP+JSON bindings behind the gate and, when
 * given, `access` (which callers may use this agent), each binding with its guards.
 */
export function mountA2a(
  router: IRouter,
  s: A2aSurface,
  d: A2aRouteDeps,
  access: readonly RequestHandler[] = [],
): void {
  const builtAt = s.cardBuiltAt ?? new Date();
  const v1Card = cardDocument(s.card, builtAt);
  const compat = s.compatV03 !== undefined;
  const card = s.compatV03
    ? versionedCardRoute(v1Card, jsonCardDocument(s.compatV03.legacyCard, builtAt))
    : agentCardRoute(v1Card);
  router.get(["/.well-known/agent-card.json", "/.well-known/agent-card"], card);
  // The web console's files, beside the card (public; its data comes through the gated
  // bindings below): /console/ for the agent at the root, /agents/<name>/console/ per workspace.
  router.use(CONSOLE_PATH, consoleRouter());
  // With compat, the SDK routes a v0.3 request (no A2A-Version header, or 0.3) to its v0.3
  // transports, which call the same request handler with the request converted to v1.0: every
  // guard of that handler and of this chain applies to it.
  const common = {
    requestHandler: s.requestHandler,
    userBuilder: userFor,
    contextBuilder: d.contextBuilder,
    legacyCompat: { enabled: compat },
  };
  // Off: not even mounted, so an untraced request pays nothing for tracing.
  const traced = (binding: "jsonrpc" | "rest") =>
    d.tracing.enabled ? [traceRequests(d.tracing, binding)] : [];
  router.use(
    JSONRPC_PATH,
    withoutEtag(
      ...traced("jsonrpc"),
      d.gate,
      ...access,
      jsonBody(d.bodyLimit, "jsonrpc"),
      // Before jsonRpcNotifications, whose silencing of a notification's answer wins.
      sseHeadWithFirstEvent,
      sseKeepAlive(d.keepAliveMs),
      jsonRpcNotifications,
      // Every answer below (the SDK's, the guards') goes through JSONRPC_SSE / JSONRPC_ANSWERS.
      correctSseChunks(JSONRPC_SSE, d.logger),
      correctJsonAnswers(JSONRPC_ANSWERS, d.logger),
      jsonRpcVersionGate(compat),
      jsonRpcShapeGuard(compat),
      jsonRpcHandler(common),
    ),
  );
  router.use(
    REST_PATH,
    ...traced("rest"),
    d.gate,
    ...access,
    restEmptyAnswers,
    // Every JSON answer below (the SDK's, the guards') goes through REST_ANSWERS.
    correctJsonAnswers(REST_ANSWERS, d.logger),
    jsonBody(d.bodyLimit, "rest"),
    restVersionGate(compat),
    restShapeGuard(compat),
    restHistoryLengthGuard,
    sseHeadWithFirstEvent,
    sseKeepAlive(d.keepAliveMs),
    correctSseChunks(REST_SSE, d.logger),
    restHandler(common),
  );
}
