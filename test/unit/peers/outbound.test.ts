import { describe, expect, it } from "vitest";
import type { Timers } from "../../../src/common/timers.js";
import { outboundFetch, PeerRefusedError } from "../../../src/peers/outbound.js";

/** Timers under which a retry's wait (under 5 s) passes at once and a request timeout never fires. */
const instant: Timers = {
  setTimeout: (fn, ms) => (ms < 5_000 ? (queueMicrotask(fn), 0) : 0),
  clearTimeout: () => undefined,
};

function recorder(responses: (() => Response)[] = []) {
  const seen: { url: string; auth: string | null }[] = [];
  const fetchImpl = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    seen.push({ url, auth: new Headers(init?.headers).get("authorization") });
    const next = responses.shift();
    return next ? Promise.resolve(next()) : Promise.reject(new TypeError("fetch failed"));
  };
  return { seen, fetchImpl: fetchImpl };
}

const resolveTo = (address: string) => () => Promise.resolve([{ address, family: 4 as const }]);

/** `outboundFetch` to a host resolving to `address`, over `fetch`: public only, no retry, instant waits. */
const fetchVia = (
  address: string,
  fetch: ReturnType<typeof recorder>["fetchImpl"],
  o: Partial<Parameters<typeof outboundFetch>[0]> = {},
) =>
  outboundFetch({
    allowPrivateNetwork: false,
    requestTimeoutMs: 10_000,
    retries: 0,
    resolve: resolveTo(address),
    fetch,
    timers: instant,
    ...o,
  });

describe("outboundFetch: the push notifications' address check, a token, retries", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.7", "private"],
    ["169.254.169.254", "link-local"],
    ["192.168.1.2", "private"],
  ])("refuses a host resolving to %s (%s) without connecting", async (address, label) => {
    const { seen, fetchImpl } = recorder([() => new Response("{}")]);
    const f = fetchVia(address, fetchImpl, { retries: 2 });
    const call = f("https://peer.example/.well-known/agent-card.json");
    await expect(call).rejects.toBeInstanceOf(PeerRefusedError);
    await expect(call).rejects.toThrow(`${label} address`);
    await expect(call).rejects.toThrow("the peer's allowPrivateNetwork");
    expect(seen).toEqual([]);
  });

  it("lets a private address through with allowPrivateNetwork, never an unspecified one", async () => {
    const ok = recorder([() => new Response("{}")]);
    const allowed = fetchVia("10.0.0.7", ok.fetchImpl, { allowPrivateNetwork: true });
    expect((await allowed("https://peer.example/x")).status).toBe(200);
    expect(ok.seen).toHaveLength(1);

    const never = recorder();
    const refused = fetchVia("0.0.0.0", never.fetchImpl, { allowPrivateNetwork: true });
    await expect(refused("https://peer.example/x")).rejects.toBeInstanceOf(PeerRefusedError);
    expect(never.seen).toEqual([]);
  });

  it("sends the bearer token, and tries a 503 and a failed connection again up to peers.retries", async () => {
    const { seen, fetchImpl } = recorder([
      () => new Response("busy", { status: 503 }),
      () => {
        throw new TypeError("fetch failed");
      },
      () => new Response("{}", { status: 200 }),
    ]);
    const bearer = { token: "s3cret", origins: ["https://peer.example"] };
    const f = fetchVia("93.184.216.34", fetchImpl, { retries: 2, bearer });
    expect((await f("https://peer.example/a2a")).status).toBe(200);
    expect(seen.map((s) => s.auth)).toEqual(["Bearer s3cret", "Bearer s3cret", "Bearer s3cret"]);
  });

  it("sends the token to its origins only, and drops an authorization header given for another", async () => {
    const { seen, fetchImpl } = recorder([
      () => new Response("{}"),
      () => new Response("{}"),
      () => new Response("{}"),
    ]);
    const bearer = { token: "s3cret", origins: ["https://peer.example"] };
    const f = fetchVia("93.184.216.34", fetchImpl, { bearer });
    await f("https://peer.example:443/a2a");
    await f("https://api.peer.example/a2a");
    await f("http://peer.example/a2a", { headers: { authorization: "Bearer other" } });
    expect(seen.map((s) => s.auth)).toEqual(["Bearer s3cret", null, null]);
  });

  it("gives up after peers.retries, and does not retry what the peer answered", async () => {
    const down = recorder();
    const f = fetchVia("93.184.216.34", down.fetchImpl, { retries: 1 });
    await expect(f("https://peer.example/a2a")).rejects.toThrow("fetch failed");
    expect(down.seen).toHaveLength(2);

    const denied = recorder([() => new Response("no", { status: 401 })]);
    const g = fetchVia("93.184.216.34", denied.fetchImpl, { retries: 3 });
    expect((await g("https://peer.example/a2a")).status).toBe(401);
    expect(denied.seen).toHaveLength(1);
  });
});
