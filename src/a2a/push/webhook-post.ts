import type { LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./target.js";

export interface WebhookRequest {
  readonly url: URL;
  /** The checked addresses of the URL's host: the only ones the connection may go to. */
  readonly addresses: readonly ResolvedAddress[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** A webhook's answer: its HTTP status, and its `Retry-After` header if it sent one. */
export interface WebhookAnswer {
  readonly status: number;
  readonly retryAfter?: string;
}

/** POSTs one notification; resolves with the answer, rejects on a network error. */
export type PostWebhook = (request: WebhookRequest) => Promise<WebhookAnswer>;

/**
 * A lookup that answers with the addresses already checked instead of asking DNS again, so the
 * connection goes where the check looked (a second lookup could return a rebound, private
 * address). Node skips the lookup for an IP literal host, which is then the checked address.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((a) => family === undefined || a.family === family);
    const first = usable[0];
    if (first === undefined) {
      const err: NodeJS.ErrnoException = new Error("no checked address of the requested family");
      err.code = "ENOTFOUND";
      callback(err, "", 0);
    } else if (options.all) {
      callback(
        null,
        usable.map((a): LookupAddress => ({ address: a.address, family: a.family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/**
 * The real transport: node:http(s) rather than fetch, because only a request's `lookup` lets
 * the connection be pinned to the checked addresses. Redirects are not followed (a 3xx is a
 * failed delivery), so a webhook cannot bounce the POST to a private address either. TLS still
 * verifies the certificate against the URL's host name.
 */
export const postPinned: PostWebhook = (r) =>
  new Promise<WebhookAnswer>((resolve, reject) => {
    const send = r.url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      r.url,
      {
        method: "POST",
        headers: { ...r.headers, "Content-Length": String(Buffer.byteLength(r.body)) },
        lookup: pinnedLookup(r.addresses),
        signal: AbortSignal.timeout(r.timeoutMs),
      },
      (res) => {
        res.on("error", () => undefined); // a body cut short after the status changes nothing
        res.resume();
        const retryAfter = res.headers["retry-after"];
        resolve({ status: res.statusCode ?? 0, ...(retryAfter !== undefined && { retryAfter }) });
      },
    );
    req.on("error", reject);
    req.end(r.body);
  });
