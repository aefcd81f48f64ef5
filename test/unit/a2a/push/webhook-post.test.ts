import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedLookup, postPinned } from "../../../../src/a2a/push/webhook-post.js";

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s === undefined) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
});

/** A receiver on 127.0.0.1 that records each request's headers and body. */
async function receiver(status = 204, headers: Record<string, string> = {}) {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { seen, port: (server.address() as AddressInfo).port };
}

describe("postPinned", () => {
  it("connects to the checked address, not to what the host name would resolve to", async () => {
    const { seen, port } = await receiver(202);
    // `.invalid` never resolves (RFC 2606): only the pinned address can be reached.
    const { status } = await postPinned({
      url: new URL(`http://hook.invalid:${port}/hook`),
      addresses: [{ address: "127.0.0.1", family: 4 }],
      headers: { "Content-Type": "application/json", "X-A2A-Notification-Token": "tok" },
      body: '{"ok":true}',
      timeoutMs: 10_000,
    });
    expect(status).toBe(202);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.host).toBe(`hook.invalid:${port}`);
    expect(seen[0]?.headers["x-a2a-notification-token"]).toBe("tok");
    expect(seen[0]?.body).toBe('{"ok":true}');
  });

  it("does not follow a redirect", async () => {
    const { seen, port } = await receiver(307);
    const { status } = await postPinned({
      url: new URL(`http://127.0.0.1:${port}/hook`),
      addresses: [{ address: "127.0.0.1", family: 4 }],
      headers: {},
      body: "{}",
      timeoutMs: 10_000,
    });
    expect(status).toBe(307);
    expect(seen).toHaveLength(1);
  });

  it("answers with the webhook's Retry-After when it sends one", async () => {
    const { port } = await receiver(429, { "Retry-After": "1" });
    const answer = await postPinned({
      url: new URL(`http://127.0.0.1:${port}/hook`),
      addresses: [{ address: "127.0.0.1", family: 4 }],
      headers: {},
      body: "{}",
      timeoutMs: 10_000,
    });
    expect(answer).toEqual({ status: 429, retryAfter: "1" });
  });
});

describe("pinnedLookup", () => {
  const addresses = [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:4700::1111", family: 6 },
  ] as const;
  const ask = (options: { family?: number; all?: boolean }) =>
    new Promise<{ err: unknown; address: unknown; family: unknown }>((resolve) =>
      pinnedLookup(addresses)("ignored.invalid", options, (err, address, family) =>
        resolve({ err, address, family }),
      ),
    );

  it("answers with the checked addresses only, by family, one or all", async () => {
    expect(await ask({})).toEqual({ err: null, address: "93.184.216.34", family: 4 });
    expect(await ask({ family: 6 })).toEqual({ err: null, address: "2606:4700::1111", family: 6 });
    expect((await ask({ all: true })).address).toEqual([...addresses]);
    expect((await ask({ all: true, family: 4 })).address).toEqual([addresses[0]]);
  });

  it("fails rather than fall back to DNS when no checked address fits", async () => {
    const only4 = pinnedLookup([{ address: "93.184.216.34", family: 4 }]);
    const err = await new Promise((resolve) => only4("x.invalid", { family: 6 }, resolve));
    expect(err).toMatchObject({ code: "ENOTFOUND" });
  });
});
