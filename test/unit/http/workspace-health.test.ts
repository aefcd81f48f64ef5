import { describe, expect, it } from "vitest";
import type { HealthReport } from "../../../src/http/health.js";
import { workspacesHealth } from "../../../src/http/workspace-health.js";
import { workspaceListing, type WorkspaceSurface } from "../../../src/http/workspace-routes.js";

const ok = (live: number): HealthReport => ({
  status: "ok",
  store: { type: "sqlite", reachable: true },
  sessions: { live, maxLive: 8 },
});

describe("workspacesHealth (pure)", () => {
  it("is ok when every workspace is, with the sum of their live sessions", () => {
    const api = ok(2);
    const web = ok(1);
    expect(
      workspacesHealth(
        [
          { name: "api", report: api },
          { name: "web", report: web },
        ],
        8,
      ),
    ).toEqual({
      status: "ok",
      store: { type: "sqlite", reachable: true },
      sessions: { live: 3, maxLive: 8 },
      workspaces: { api, web },
    });
  });

  it("is degraded when one store does not answer, naming the workspace", () => {
    const down: HealthReport = {
      status: "degraded",
      store: { type: "sqlite", reachable: false, error: "no answer within 2000 ms" },
      sessions: { live: 0, maxLive: 8 },
    };
    const report = workspacesHealth(
      [
        { name: "api", report: ok(0) },
        { name: "web", report: down },
      ],
      8,
    );
    expect(report.status).toBe("degraded");
    expect(report.store).toEqual({
      type: "sqlite",
      reachable: false,
      error: 'workspace "web": no answer within 2000 ms',
    });
  });
});

describe("workspaceListing (pure)", () => {
  const surface = (name: string, allows: WorkspaceSurface["allows"]) =>
    ({ name, url: `http://h/agents/${name}`, allows }) as WorkspaceSurface;
  it("lists the workspaces the caller may call, with the URL a client starts from", () => {
    const list = workspaceListing(
      [surface("api", (c) => c.kind === "token"), surface("web", () => true)],
      { kind: "anonymous" },
    );
    expect(list).toEqual([
      {
        name: "web",
        url: "http://h/agents/web/",
        agentCard: "http://h/agents/web/.well-known/agent-card.json",
      },
    ]);
  });
});
