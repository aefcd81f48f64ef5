/** /healthz and /metrics on the HTTP surface (127.0.0.1:0), and the metrics fed by session events. */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentCard } from "../../../src/a2a/card/agent-card.js";
import type { SessionEvent } from "../../../src/claude/index.js";
import { resolveConfig } from "../../../src/config/load.js";
import { createHttpApp } from "../../../src/http/app.js";
import { Authenticator } from "../../../src/auth/decide.js";
import { checkHealth, withGrpc, type HealthReport } from "../../../src/http/health.js";
import { ServerMetrics } from "../../../src/metrics/metrics.js";
import { conversationKey } from "../../../src/identity/conversation.js";
import { metricsCallerLabel } from "../../../src/identity/metrics-caller.js";

const card = buildAgentCard(resolveConfig({}, { file: "test.json", startDir: "/work" }), {
  version: "0.0.0",
});

let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(o: {
  reachable: boolean;
  allowedLogins?: string[];
  metrics: ServerMetrics;
}): Promise<string> {
  const app = createHttpApp({
    card,
    requestHandler: {} as A2ARequestHandler,
    bodyLimit: 100_000,
    auth: new Authenticator({ allowedLogins: o.allowedLogins }),
    logger: pino({ level: "silent" }),
    health: () =>
      checkHealth({
        storeType: "sqlite",
        pingStore: () =>
          o.reachable ? Promise.resolve() : Promise.reject(new Error("database is locked")),
        liveSessions: () => 2,
        maxLive: 8,
      }),
    metrics: o.metrics,
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const sources = (counts?: Record<string, number>) => ({
  tasksByState: () => Promise.resolve(counts),
  liveSessions: () => 2,
  backgroundTasks: () => 1,
  queuedTasks: () => 4,
  callerLabel: metricsCallerLabel({ tokens: ["ci"], logins: ["ada@example.com"] }),
});

describe("GET /healthz", () => {
  it("answers ok with the store and the live sessions", async () => {
    const url = await serve({ reachable: true, metrics: new ServerMetrics(sources()) });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      store: { type: "sqlite", reachable: true },
      sessions: { live: 2, maxLive: 8 },
    });
  });

  it("answers 200 degraded when the store does not answer, and stays public behind allowedLogins", async () => {
    const url = await serve({
      reachable: false,
      allowedLogins: ["ada@example.com"],
      metrics: new ServerMetrics(sources()),
    });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "degraded",
      store: { type: "sqlite", reachable: false, error: "database is locked" },
    });
  });
});

describe("damaged git repositories in the health report", () => {
  const sources = (damaged: { repository: string; error: string; since: string }[]) => ({
    storeType: "memory",
    pingStore: () => Promise.resolve(),
    liveSessions: () => 0,
    maxLive: 1,
    gitDamage: () => damaged,
  });

  it("are listed, and make it degraded; none: ok with an empty list; no worktrees: no git part", async () => {
    const damage = {
      repository: "c1-0123456789",
      error: "fatal: bad",
      since: "2026-12-07T06:00:00Z",
    };
    const bad = await checkHealth(sources([damage]));
    expect(bad.status).toBe("degraded");
    expect(bad.git).toEqual({ damaged: [damage] });
    const good = await checkHealth(sources([]));
    expect(good.status).toBe("ok");
    expect(good.git).toEqual({ damaged: [] });
    const { gitDamage: _none, ...shared } = sources([]);
    expect((await checkHealth(shared)).git).toBeUndefined();
  });
});

describe("the gRPC binding in the health report", () => {
  const ok: HealthReport = {
    status: "ok",
    store: { type: "sqlite", reachable: true },
    sessions: { live: 0, maxLive: 8 },
  };
  it("is absent when gRPC is off, reported when on; unavailable once it stopped serving", () => {
    expect(withGrpc(ok, undefined)).toEqual(ok);
    const grpc = { address: "127.0.0.1:50051", tls: false, serving: true };
    expect(withGrpc(ok, grpc)).toEqual({ ...ok, grpc });
    expect(withGrpc(ok, { ...grpc, serving: false })).toMatchObject({ status: "unavailable" });
    const down: HealthReport = { ...ok, status: "unavailable" };
    expect(withGrpc(down, grpc).status).toBe("unavailable");
  });
});

describe("GET /metrics", () => {
  it("serves the Prometheus text format", async () => {
    const url = await serve({
      reachable: true,
      metrics: new ServerMetrics(sources({ completed: 3, working: 1 })),
    });
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toContain('claude_a2a_tasks{state="completed"} 3');
    expect(body).toContain('claude_a2a_tasks{state="working"} 1');
    expect(body).toContain("claude_a2a_live_sessions 2");
    expect(body).toContain("claude_a2a_background_tasks 1");
    expect(body).toContain("claude_a2a_queued_tasks 4");
  });

  it("is behind the allowedLogins gate", async () => {
    const url = await serve({
      reachable: true,
      allowedLogins: ["ada@example.com"],
      metrics: new ServerMetrics(sources()),
    });
    expect((await fetch(`${url}/metrics`)).status).toBe(403);
    const ok = await fetch(`${url}/metrics`, {
      headers: { "Tailscale-User-Login": "ada@example.com" },
    });
    expect(ok.status).toBe(200);
  });
});

describe("ServerMetrics", () => {
  it("counts runs by origin and outcome, retries, and times the first event and the turn", async () => {
    let clock = 0;
    const m = new ServerMetrics(sources(), () => clock);
    const started = (runId: string, origin: "foreground" | "autonomous"): SessionEvent => ({
      type: "run_started",
      runId,
      origin,
    });
    m.onSessionEvent("c1", started("r1", "foreground"));
    clock = 250;
    m.onSessionEvent("c1", {
      type: "run_event",
      runId: "r1",
      origin: "foreground",
      late: false,
      event: { kind: "api_retry" } as never,
    });
    clock = 2_000;
    m.onSessionEvent("c1", {
      type: "run_ended",
      runId: "r1",
      origin: "foreground",
      outcome: { state: "completed", text: "" },
    });
    m.onSessionEvent("c2", started("r1", "autonomous"));
    m.onSessionEvent("c2", {
      type: "run_ended",
      runId: "r1",
      origin: "autonomous",
      outcome: { state: "error", reason: "boom" },
    });
    const text = await m.render();
    expect(text).toContain('claude_a2a_runs_total{origin="foreground",outcome="completed"} 1');
    expect(text).toContain('claude_a2a_runs_total{origin="autonomous",outcome="error"} 1');
    expect(text).toContain("claude_a2a_model_api_retries_total 1");
    expect(text).toContain(
      'claude_a2a_time_to_first_event_seconds_bucket{le="0.25",origin="foreground"} 1',
    );
    expect(text).toContain(
      'claude_a2a_time_to_first_event_seconds_bucket{le="0.1",origin="foreground"} 0',
    );
    expect(text).toContain(
      'claude_a2a_turn_duration_seconds_sum{origin="foreground",outcome="completed"} 2',
    );
    // The store could not say (memory): no task series at all.
    expect(text).not.toMatch(/^claude_a2a_tasks\{/m);
  });
});

describe("ServerMetrics: tokens and cost", () => {
  const key = (owner: string) => conversationKey({ owner, contextId: "ctx" });
  const result = (models: Record<string, [number, number, number, number, number]>) =>
    ({
      kind: "result",
      usage: {
        models: Object.fromEntries(
          Object.entries(models).map(([model, [input, output, read, write, costUsd]]) => [
            model,
            {
              inputTokens: input,
              outputTokens: output,
              cacheReadTokens: read,
              cacheCreationTokens: write,
              costUsd,
            },
          ]),
        ),
      },
    }) as never;

  it("counts every result's tokens by type and its cost, by model and bounded caller", async () => {
    const m = new ServerMetrics(sources());
    const ev = (late: boolean, event: never): SessionEvent => ({
      type: "run_event",
      runId: "r1",
      origin: "foreground",
      late,
      event,
    });
    m.onSessionEvent(key("token:ci"), ev(false, result({ sonnet: [10, 20, 5, 0, 0.00033] })));
    // A late result (its run had ended) and one no run owns still spent.
    m.onSessionEvent(key("token:ci"), ev(true, result({ sonnet: [10, 20, 0, 7, 0.00033] })));
    m.onSessionEvent(key("login:ada@example.com"), {
      type: "metadata",
      event: result({ haiku: [1, 2, 0, 0, 0.0001] }),
    });
    // Callers the configuration does not name share one label.
    m.onSessionEvent(key("token:unlisted"), ev(false, result({ sonnet: [1, 1, 0, 0, 0.1] })));
    m.onSessionEvent(key("unknown"), ev(false, result({ sonnet: [2, 2, 0, 0, 0.2] })));
    const text = await m.render();
    const line = (name: string, labels: string) =>
      new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, "m").exec(text)?.[1];
    const tokens = (caller: string, model: string, type: string) =>
      line("claude_a2a_tokens_total", `caller="${caller}",model="${model}",type="${type}"`);
    expect(tokens("token:ci", "sonnet", "input")).toBe("20");
    expect(tokens("token:ci", "sonnet", "output")).toBe("40");
    expect(tokens("token:ci", "sonnet", "cache_read")).toBe("5");
    expect(tokens("token:ci", "sonnet", "cache_creation")).toBe("7");
    expect(tokens("login:ada@example.com", "haiku", "output")).toBe("2");
    expect(tokens("other", "sonnet", "input")).toBe("3");
    expect(
      Number(line("claude_a2a_cost_usd_total", 'caller="token:ci",model="sonnet"')),
    ).toBeCloseTo(0.00066, 10);
    expect(Number(line("claude_a2a_cost_usd_total", 'caller="other",model="sonnet"'))).toBeCloseTo(
      0.3,
      10,
    );
    expect(text).not.toContain("unlisted");
    expect(text).not.toContain('caller="unknown"');
  });
});
