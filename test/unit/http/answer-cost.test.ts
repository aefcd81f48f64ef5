import { afterEach, describe, expect, it } from "vitest";
import { post, rpc, start, stopApp } from "./support/stub-app.js";

afterEach(stopApp);

describe("HTTP app: what a JSON-RPC answer does not pay for", () => {
  it("carries no generated ETag (nor X-Powered-By); the card keeps its own", async () => {
    const r = await start();
    const res = await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("x-powered-by")).toBeNull();
    const card = await fetch(`${r.url}/.well-known/agent-card.json`);
    expect(card.headers.get("etag")).toMatch(/^"/);
  });

  it("an unmatched path under the binding still gets the app's 404", async () => {
    const r = await start();
    const res = await fetch(`${r.url}/a2a/jsonrpc/nothing-here`);
    expect(res.status).toBe(404);
  });

  it("the request line is not redacted yet holds no credential: its fields only", async () => {
    const r = await start();
    await post(`${r.url}/a2a/jsonrpc`, rpc("GetTask", { id: "t1" }), {
      "content-type": "application/json",
      "A2A-Version": "1.0",
      authorization: "Bearer not-logged",
    });
    const [line] = (await r.logged(1)).filter((l) => l.msg === "request");
    expect(Object.keys(line ?? {}).sort()).toEqual(
      [
        "caller",
        "contextId",
        "hostname",
        "level",
        "method",
        "ms",
        "msg",
        "path",
        "pid",
        "rpc",
        "status",
        "taskId",
        "time",
      ].sort(),
    );
    expect(JSON.stringify(line)).not.toContain("not-logged");
  });
});
