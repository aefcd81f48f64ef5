/**
 * A request to a peer connects to exactly the address its check passed (docs/peers.md "Limits"):
 * the real transport (`pinned-fetch.ts`) against two loopback listeners on the same port,
 * 127.0.0.1 ("near", what the check saw) and 127.0.0.2 ("far", where a rebinding answer points),
 * with an injected resolver. `.invalid` never resolves (RFC 2606), so nothing but the pinned
 * address can be reached; no test connects anywhere but loopback.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AgentCard } from "@a2a-js/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { Resolve, ResolvedAddress } from "../../../src/a2a/push/target.js";
import {
  outboundFetch,
  PeerRefusedError,
  type OutboundOptions,
} from "../../../src/peers/outbound.js";
import { Peer } from "../../../src/peers/peer-client.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

interface Listener {
  readonly seen: string[];
  /** The authorization header of each request, in order (`-` for none). */
  readonly auth: string[];
  /** The response of a `/stream` request, left open for the test to finish. */
  readonly streams: ServerResponse[];
}

type Route = [number, string?, string?];

function listen(host: string, port: number, routes: (path: string) => Route) {
  const l: Listener = { seen: [], auth: [], streams: [] };
  const server = createServer((req, res) => {
    l.seen.push(`${req.method} ${req.url}`);
    l.auth.push(req.headers.authorization ?? "-");
    req.resume();
    if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first ");
      l.streams.push(res);
      return;
    }
    const [status, location, body] = routes(req.url ?? "");
    res.writeHead(status, location === undefined ? {} : { location }).end(body ?? `at ${host}`);
  });
  servers.push(server);
  return new Promise<{ listener: Listener; port: number }>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({ listener: l, port: (server.address() as AddressInfo).port }),
    );
  });
}

/** Near on 127.0.0.1, far on 127.0.0.2, both on one port: a URL's host alone picks between them. */
async function twoListeners(routes: (port: number) => (path: string) => Route) {
  let port = 0;
  const route = (path: string) => routes(port)(path);
  const near = await listen("127.0.0.1", 0, route);
  port = near.port;
  const far = await listen("127.0.0.2", port, route);
  return { near: near.listener, far: far.listener, port };
}

const v4 = (address: string): ResolvedAddress[] => [{ address, family: 4 }];

/** Answers `first` to its first question and `then` to every later one, counting them. */
function rebinding(first: string, then: string) {
  const asked: string[] = [];
  const resolve: Resolve = (host) => {
    asked.push(host);
    return Promise.resolve(v4(asked.length === 1 ? first : then));
  };
  return { asked, resolve };
}

const outbound = (
  allowPrivateNetwork: boolean,
  resolve: Resolve,
  bearer?: OutboundOptions["bearer"],
) => outboundFetch({ allowPrivateNetwork, requestTimeoutMs: 10_000, retries: 0, resolve, bearer });

const noDns: Resolve = (host) => Promise.reject(new Error(`unexpected lookup of ${host}`));

describe("outbound requests to a peer are pinned to the checked address", () => {
  it("connects where the check looked, though the name resolves elsewhere a moment later", async () => {
    const { near, far, port } = await twoListeners(() => () => [200]);
    const dns = rebinding("127.0.0.1", "127.0.0.2");
    const f = outbound(true, dns.resolve);
    const response = await f(`http://peer.invalid:${port}/card`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("at 127.0.0.1");
    // One resolution, the checked one, made the connection: the rebound answer was never used.
    expect(dns.asked).toEqual(["peer.invalid"]);
    expect(near.seen).toEqual(["GET /card"]);
    expect(far.seen).toEqual([]);
  });

  it("checks each request anew: a name rebound to a never-allowed address is refused unconnected", async () => {
    // 0.0.0.0 reaches this host's listeners on Linux: a request that got through would show.
    const { near, port } = await twoListeners(() => () => [200]);
    const dns = rebinding("127.0.0.1", "0.0.0.0");
    const f = outbound(true, dns.resolve);
    expect((await f(`http://peer.invalid:${port}/a`)).status).toBe(200);
    const second = f(`http://peer.invalid:${port}/b`);
    await expect(second).rejects.toBeInstanceOf(PeerRefusedError);
    await expect(second).rejects.toThrow("resolves to 0.0.0.0, an unspecified address");
    expect(near.seen).toEqual(["GET /a"]);
  });

  it("refuses a loopback peer without allowPrivateNetwork before connecting, and reaches it with it", async () => {
    const { near, port } = await twoListeners(() => () => [200]);
    const refused = outbound(false, noDns)(`http://127.0.0.1:${port}/card`);
    await expect(refused).rejects.toBeInstanceOf(PeerRefusedError);
    await expect(refused).rejects.toThrow("the peer's allowPrivateNetwork");
    expect(near.seen).toEqual([]);
    expect((await outbound(true, noDns)(`http://127.0.0.1:${port}/card`)).status).toBe(200);
    expect(near.seen).toEqual(["GET /card"]);
  });

  it("follows a read's redirect as a new checked request, and refuses one to a never-allowed address", async () => {
    const { near, far, port } = await twoListeners((p) => (path) => {
      if (path === "/to-far") return [302, `http://127.0.0.2:${p}/card`];
      if (path === "/to-any") return [307, `http://0.0.0.0:${p}/card`];
      return [200];
    });
    const f = outbound(true, noDns);
    const followed = await f(`http://127.0.0.1:${port}/to-far`);
    expect(await followed.text()).toBe("at 127.0.0.2");
    expect(far.seen).toEqual(["GET /card"]);

    const refused = f(`http://127.0.0.1:${port}/to-any`);
    await expect(refused).rejects.toThrow(`Refused to call http://0.0.0.0:${port}/card`);
    expect(near.seen).toEqual(["GET /to-far", "GET /to-any"]);
  });

  it("returns a POST's redirect as the peer's answer instead of resending the message", async () => {
    const { near, far, port } = await twoListeners((p) => () => [307, `http://127.0.0.2:${p}/`]);
    const f = outbound(true, (host) => Promise.reject(new Error(`unexpected lookup of ${host}`)));
    const response = await f(`http://127.0.0.1:${port}/rpc`, { method: "POST", body: "{}" });
    expect(response.status).toBe(307);
    expect(near.seen).toEqual(["POST /rpc"]);
    expect(far.seen).toEqual([]);
  });

  it("streams a response past the end of its request: an open answer keeps its connection", async () => {
    const { near, port } = await twoListeners(() => () => [200]);
    const f = outbound(true, () => Promise.resolve(v4("127.0.0.1")));
    const response = await f(`http://peer.invalid:${port}/stream`);
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("first ");
    near.streams[0]!.end("second");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += decoder.decode(r.value);
    expect(rest).toBe("second");
  });

  it("sends the token on the configured origin only: not on a redirect's hop elsewhere", async () => {
    const { near, far, port } = await twoListeners(
      (p) => (path) => (path === "/to-far" ? [302, `http://127.0.0.2:${p}/card`] : [200]),
    );
    const bearer = { token: "s3cret", origins: [`http://127.0.0.1:${port}`] };
    const followed = await outbound(true, noDns, bearer)(`http://127.0.0.1:${port}/to-far`);
    expect(await followed.text()).toBe("at 127.0.0.2");
    expect(near.auth).toEqual(["Bearer s3cret"]);
    expect(far.seen).toEqual(["GET /card"]);
    expect(far.auth).toEqual(["-"]);
  });

  // The near listener serves a card whose JSON-RPC interface is on the far host (which fails
  // the call): the token goes there only when the peer's auth.origins lists that host.
  it.each([
    ["a peer's token is not sent to an interface its card lists on another host", false, "-"],
    ["sends it there when the peer's auth.origins lists that host", true, "Bearer s3cret"],
  ])("%s", async (_name, farListed, farAuth) => {
    const { near, far, port } = await twoListeners(
      (p) => (path) =>
        path === "/.well-known/agent-card.json"
          ? [200, undefined, JSON.stringify(cardListing(`http://127.0.0.2:${p}/a2a/jsonrpc`))]
          : [500],
    );
    const auth = {
      tokenEnv: "B_TOKEN",
      ...(farListed && { origins: [`http://127.0.0.2:${port}/`] }),
    };
    const peer = new Peer(
      "b",
      { url: `http://127.0.0.1:${port}/`, auth, allowPrivateNetwork: true },
      { requestTimeoutMs: 10_000, retries: 0 },
      { resolve: noDns, env: { B_TOKEN: "s3cret" } },
    );
    const client = await peer.connect();
    await expect(
      client.getTask({ tenant: "", id: "t1", historyLength: undefined }),
    ).rejects.toThrow();
    expect(near.seen).toEqual(["GET /.well-known/agent-card.json"]);
    expect(near.auth).toEqual(["Bearer s3cret"]);
    expect(far.seen).toEqual(["POST /a2a/jsonrpc"]);
    expect(far.auth).toEqual([farAuth]);
  });
});

/** A peer's card (as JSON) whose one JSON-RPC interface is at `url`. */
function cardListing(url: string) {
  return AgentCard.toJSON(
    AgentCard.fromJSON({
      name: "B",
      description: "A peer",
      version: "1.0.0",
      supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { streaming: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
    }),
  );
}
