import { describe, expect, it } from "vitest";
import { agentBaseUrl } from "../../../src/client/connect.js";

describe("agentBaseUrl (pure)", () => {
  it.each([
    ["http://localhost:3008", "http://localhost:3008"],
    ["http://localhost:3008/", "http://localhost:3008/"],
    ["http://localhost:3008/agents/api", "http://localhost:3008/agents/api/"],
    ["http://localhost:3008/agents/api/", "http://localhost:3008/agents/api/"],
    ["https://proxy.example.com/claude?x=1", "https://proxy.example.com/claude/?x=1"],
    ["not a url", "not a url"],
  ])("%s → %s", (url, base) => {
    expect(agentBaseUrl(url)).toBe(base);
  });
});
