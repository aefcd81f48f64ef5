import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  callRefusal,
  cardUrlOf,
  peerStateStep,
  retryStep,
  sendsToken,
  stateName,
  tokenOrigins,
} from "../../../src/peers/decisions.js";

describe("callRefusal: only a configured peer, within peers.maxDepth", () => {
  it.each([
    // agent, depth, maxDepth, refused with
    ["b", 0, 3, undefined],
    ["b", 2, 3, undefined],
    ["b", 3, 3, "would be depth 4, beyond peers.maxDepth (3)"],
    ["b", 1, 1, "would be depth 2, beyond peers.maxDepth (1)"],
    ["evil", 0, 3, '"evil" is not a configured peer (configured: b, c)'],
    ["http://127.0.0.1:9/", 0, 3, "is not a configured peer"],
  ] as const)("%s at depth %i (max %i)", (agent, depth, max, refused) => {
    const why = callRefusal(agent, ["b", "c"], depth, max);
    if (refused === undefined) expect(why).toBeUndefined();
    else expect(why).toContain(refused);
  });

  it("says none is configured when none is", () => {
    expect(callRefusal("b", [], 0, 3)).toContain("(configured: none)");
  });
});

describe("retryStep: a request that did not reach the peer is tried again, its answers are not", () => {
  it.each([
    [{ network: true } as const, 0, 2, { retry: true, delayMs: 500 }],
    [{ network: true } as const, 1, 2, { retry: true, delayMs: 1000 }],
    [{ network: true } as const, 2, 2, { retry: false }],
    [{ status: 503 }, 0, 2, { retry: true, delayMs: 500 }],
    [{ status: 502 }, 0, 1, { retry: true, delayMs: 500 }],
    [{ status: 504 }, 0, 0, { retry: false }],
    [{ status: 500 }, 0, 2, { retry: false }],
    [{ status: 401 }, 0, 2, { retry: false }],
    [{ status: 200 }, 0, 2, { retry: false }],
    [{ aborted: true } as const, 0, 2, { retry: false }],
  ])("%o, attempt %i of %i retries", (failure, attempt, retries, step) => {
    expect(retryStep(failure, attempt, retries)).toEqual(step);
  });
});

describe("peerStateStep and stateName: what a peer's state means for the call", () => {
  it.each([
    [TaskState.TASK_STATE_SUBMITTED, "wait", "submitted"],
    [TaskState.TASK_STATE_WORKING, "wait", "working"],
    [TaskState.TASK_STATE_INPUT_REQUIRED, "ask", "input-required"],
    [TaskState.TASK_STATE_AUTH_REQUIRED, "ask", "auth-required"],
    [TaskState.TASK_STATE_COMPLETED, "done", "completed"],
    [TaskState.TASK_STATE_FAILED, "failed", "failed"],
    [TaskState.TASK_STATE_CANCELED, "failed", "canceled"],
    [TaskState.TASK_STATE_REJECTED, "failed", "rejected"],
    [undefined, "wait", "unknown"],
  ] as const)("%s", (state, step, name) => {
    expect(peerStateStep(state)).toBe(step);
    expect(stateName(state)).toBe(name);
  });
});

describe("cardUrlOf", () => {
  it.each([
    ["http://h:1", "http://h:1/.well-known/agent-card.json"],
    ["http://h:1/", "http://h:1/.well-known/agent-card.json"],
    [
      "https://h/agents/web/.well-known/agent-card.json",
      "https://h/agents/web/.well-known/agent-card.json",
    ],
    ["https://h/card.json", "https://h/card.json"],
  ])("%s", (url, card) => {
    expect(cardUrlOf(url)).toBe(card);
  });
});

describe("sendsToken and tokenOrigins: a peer's token goes to the origins the operator gave only", () => {
  const origins = tokenOrigins("https://peer.example/.well-known/agent-card.json", [
    "https://api.example:8443/anything",
  ]);

  it("are the card URL's origin and each auth.origins entry's, once", () => {
    expect(origins).toEqual(["https://peer.example", "https://api.example:8443"]);
    expect(tokenOrigins("http://h:1/a", ["http://h:1/b"])).toEqual(["http://h:1"]);
  });

  it.each([
    ["https://peer.example/a2a/jsonrpc", true],
    ["https://peer.example:443/x", true],
    ["https://api.example:8443/a2a", true],
    ["http://peer.example/a2a", false],
    ["https://peer.example:8443/a2a", false],
    ["https://api.example/a2a", false],
    ["https://evil.example/?https://peer.example", false],
    ["https://peer.example.evil.example/", false],
    ["https://user@evil.example/", false],
    ["not a url", false],
  ])("%s: %s", (url, sent) => {
    expect(sendsToken(url, origins)).toBe(sent);
  });
});
