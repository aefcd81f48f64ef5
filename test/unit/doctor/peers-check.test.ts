import { describe, expect, it } from "vitest";
import { checkPeers } from "../../../src/doctor/peers-check.js";
import { formatReport } from "../../../src/doctor/checks.js";
import { freePort } from "../../support/harness/ports.js";

const bounds = { maxDepth: 3, requestTimeoutMs: 5_000, callTimeoutMs: 60_000, retries: 0 };
const none = "none" as const;

describe("--check of peers", () => {
  it("reports an unreachable peer, names its card URL and how to fix it", async () => {
    const port = await freePort();
    const results = await checkPeers({
      ...bounds,
      workspaceAuth: none,
      agents: { down: { url: `http://127.0.0.1:${port}/`, auth: none, allowPrivateNetwork: true } },
    });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: "peer down", ok: false });
    expect(results[0]?.detail).toContain(
      `its card at http://127.0.0.1:${port}/.well-known/agent-card.json cannot be read`,
    );
    expect(formatReport(results).code).toBe(1);
  });

  it("reports a peer on a private address refused, without connecting (an injected resolver)", async () => {
    const tried: string[] = [];
    const results = await checkPeers(
      {
        ...bounds,
        workspaceAuth: none,
        agents: { lan: { url: "https://lan.example/", auth: none, allowPrivateNetwork: false } },
      },
      [],
      {
        resolve: () => Promise.resolve([{ address: "192.168.1.20", family: 4 }]),
        fetch: ((input: string) => {
          tried.push(input);
          return Promise.reject(new Error("must not connect"));
        }) as typeof fetch,
      },
    );
    expect(results[0]?.ok).toBe(false);
    expect(results[0]?.detail).toContain("a private address");
    expect(tried).toEqual([]);
  });

  it("lists a sibling workspace without reading it, and a peer whose token variable is unset fails", async () => {
    const results = await checkPeers(
      {
        ...bounds,
        workspaceAuth: none,
        agents: {
          web: { url: "http://127.0.0.1:1/agents/web/", auth: none, allowPrivateNetwork: true },
          sec: {
            url: "https://sec.example/",
            auth: { tokenEnv: "SEC_TOKEN" },
            allowPrivateNetwork: false,
          },
        },
      },
      ["web"],
      { env: {} },
    );
    expect(results[0]).toEqual({
      name: "peer web",
      ok: true,
      detail: "a sibling workspace of this server",
    });
    expect(results[1]?.ok).toBe(false);
    expect(results[1]?.detail).toContain("SEC_TOKEN (its auth.tokenEnv) is not set");
  });
});
