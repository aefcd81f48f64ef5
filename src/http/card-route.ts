import type { RequestHandler } from "express";
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import type { CardDocument } from "../a2a/card/agent-card.js";
import { HTTP_STATUS } from "../contract/wire-codes.js";

/** The cache policy of @a2a-js/sdk's `agentCardHandler`, kept. */
export const CARD_CACHE_CONTROL = "public, max-age=3600";

export interface Conditionals {
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
}

/** `"a", W/"b"` → the opaque tags, weakness dropped (If-None-Match uses the weak comparison). */
const entityTags = (list: string) =>
  list
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .filter((tag) => tag !== "");

/**
 * RFC 9110 §13.2.2 for a GET of the card: If-None-Match, when present, decides alone (any listed
 * tag or `*` matching means "not modified"); otherwise If-Modified-Since at or after
 * Last-Modified does. A request's `Cache-Control: no-cache` changes nothing for the origin server
 * (Express's `req.fresh` says otherwise, and `fetch` sends that header with every conditional
 * request, so it would never get a 304).
 */
export function isNotModified(request: Conditionals, doc: CardDocument): boolean {
  if (request.ifNoneMatch !== undefined) {
    const tags = entityTags(request.ifNoneMatch);
    return tags.includes("*") || tags.includes(doc.etag);
  }
  if (request.ifModifiedSince === undefined) return false;
  const since = Date.parse(request.ifModifiedSince);
  return !Number.isNaN(since) && Date.parse(doc.lastModified) <= since;
}

/**
 * Serves the agent card with HTTP caching (A2A v1.0 §8.3): `Cache-Control`, a strong `ETag` of
 * the bytes served and `Last-Modified` (when the card was built); a matching `If-None-Match` or
 * `If-Modified-Since` gets a 304.
 *
 * Not the SDK's `agentCardHandler` (1.3), which this corrects: it serializes the in-memory card
 * with `JSON.stringify` (the internal `$case` form of `securitySchemes` leaks onto the wire), its
 * ETag is weak (`W/"…"`), it sends no `Last-Modified`, and it decides 304 with `req.fresh`, which
 * never holds for a request carrying `Cache-Control: no-cache` (as every `fetch` one does).
 */
export function agentCardRoute(doc: CardDocument): RequestHandler {
  return (req, res) => {
    res.setHeader("Cache-Control", CARD_CACHE_CONTROL);
    res.setHeader("ETag", doc.etag);
    res.setHeader("Last-Modified", doc.lastModified);
    const conditionals = {
      ifNoneMatch: req.header("if-none-match"),
      ifModifiedSince: req.header("if-modified-since"),
    };
    if (isNotModified(conditionals, doc)) {
      res.status(HTTP_STATUS.NOT_MODIFIED).end();
      return;
    }
    res.type("application/json").send(doc.body);
  };
}

/**
 * Whether a card request gets the v0.3 card: no `A2A-Version` header (A2A reads that as 0.3) or
 * a version in [0.3, 1.0), as the SDK's own card handler decides. Pure.
 */
export function wantsLegacyCard(header: string | undefined): boolean {
  const version = header?.trim();
  if (version === undefined || version === "") return true;
  const minor = /^0\.(\d+)(?:\.|$)/.exec(version)?.[1];
  return minor !== undefined && Number(minor) >= 3;
}

/**
 * With `server.compat.v03`: the v0.3 card (legacy-card.ts) to a request `wantsLegacyCard`, the
 * v1.0 one to the others, each with its own validators, and `Vary: A2A-Version` on both so a
 * cache keeps them apart.
 */
export function versionedCardRoute(v1: CardDocument, legacy: CardDocument): RequestHandler {
  const v1Route = agentCardRoute(v1);
  const legacyRoute = agentCardRoute(legacy);
  return (req, res, next) => {
    res.vary(A2A_VERSION_HEADER);
    const route = wantsLegacyCard(req.header(A2A_VERSION_HEADER)) ? legacyRoute : v1Route;
    route(req, res, next);
  };
}
