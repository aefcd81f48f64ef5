import express, { type Express, type RequestHandler } from "express";

/**
 * `handlers` in a mounted app whose answers carry no generated `ETag`: Express hashes every body
 * it sends (SHA-1) for one, and a JSON-RPC answer is a POST's, which no cache or conditional
 * request reuses. Errors and unmatched requests go on to the parent's handlers.
 */
export function withoutEtag(...handlers: RequestHandler[]): Express {
  const sub = express();
  sub.disable("x-powered-by");
  sub.set("etag", false);
  sub.use(...handlers);
  return sub;
}
