import { describe, expect, it } from "vitest";
import { requestLogLevel, type RequestFacts } from "../../../src/http/request-log-level.js";

const get = (path: string, status = 200): RequestFacts => ({ method: "GET", path, status });
const rpc = (name: string, status = 200): RequestFacts => ({
  method: "POST",
  path: "/a2a/jsonrpc",
  status,
  rpc: name,
});

describe("requestLogLevel", () => {
  it.each<[string, RequestFacts, "debug" | "info"]>([
    ["a health probe", get("/healthz"), "debug"],
    ["a workspace's health probe", get("/agents/api/healthz"), "debug"],
    ["the console's page", get("/console/"), "debug"],
    ["a console file", get("/console/app.js"), "debug"],
    ["a workspace's console file", get("/agents/api/console/app.js"), "debug"],
    ["the agent card", get("/.well-known/agent-card.json"), "debug"],
    ["the console's ListTasks poll", rpc("ListTasks"), "debug"],
    ["a REST listing", get("/tasks"), "debug"],
    ["a message", rpc("SendStreamingMessage"), "info"],
    ["a GetTask", rpc("GetTask"), "info"],
    ["a REST task", get("/tasks/abc"), "info"],
    ["a refused poll (401)", rpc("ListTasks", 401), "info"],
    ["a missing console file", get("/console/nope.js", 404), "info"],
    ["an unhealthy probe", get("/healthz", 503), "info"],
    ["a POST to a console path", { method: "POST", path: "/console/", status: 200 }, "info"],
    ["metrics", get("/metrics"), "info"],
  ])("%s: %s", (_name, facts, level) => {
    expect(requestLogLevel(facts)).toBe(level);
  });
});
