/** The client's pure decisions of issue 49: refusal texts, typos, memory keys, a settled cost. */
import { describe, expect, it } from "vitest";
import { errorMessage, grpcReason } from "../../../src/client/connect.js";
import { memoryKey } from "../../../src/client/context-memory.js";
import { RefusedError, refusalFetch, refusalReason } from "../../../src/client/refusal.js";
import { isDroppedConnection } from "../../../src/client/resume.js";
import { isSettled } from "../../../src/client/settled-usage.js";
import { editDistance, nearestCommand } from "../../../src/client/suggest.js";
import { EMPTY_USAGE } from "../../../src/contract/usage.js";

const COMMANDS = ["send", "chat", "tasks", "task", "cancel", "demo"];
const TOKEN_HINT =
  "(the agent requires a bearer token, and none or a wrong one was sent: pass --token or set A2A_TOKEN.)";

describe("a refusal's reason", () => {
  it.each([
    [
      '{"error":"unauthorized","message":"The bearer token is not valid."}',
      "The bearer token is not valid.",
    ],
    ['{"error":{"code":401,"message":"Token expired"}}', "Token expired"],
    ['{"error":"forbidden"}', "forbidden"],
    ["Unauthorized", "Unauthorized"],
    ["", undefined],
    ["<html><body>401</body></html>", undefined],
    ['{"message":""}', undefined],
  ])("%j reads as %j", (body, reason) => {
    expect(refusalReason(body)).toBe(reason);
  });

  it("is the error's text: the server's words, then what to do; 403 names the logins", () => {
    expect(errorMessage(new RefusedError(401, "The bearer token is not valid."))).toBe(
      `The bearer token is not valid. ${TOKEN_HINT}`,
    );
    expect(errorMessage(new RefusedError(401, undefined))).toBe(TOKEN_HINT.slice(1, -1));
    expect(errorMessage(new RefusedError(403, "Not allowed on this workspace."))).toMatch(
      /^Not allowed on this workspace\. \(the agent refused this caller \(403\)/,
    );
    // Never taken for a dropped stream, which would be resumed.
    expect(isDroppedConnection(new RefusedError(401, "x"))).toBe(false);
  });

  it("the client's fetch throws 401 and 403 with the body's reason, and passes the rest", async () => {
    const answer = (status: number, body: string) => () =>
      Promise.resolve(new Response(body, { status }));
    await expect(
      refusalFetch(answer(401, '{"message":"No token."}'))("http://x/"),
    ).rejects.toMatchObject({ status: 401, reason: "No token." });
    await expect(refusalFetch(answer(403, ""))("http://x/")).rejects.toMatchObject({
      status: 403,
      reason: undefined,
    });
    expect((await refusalFetch(answer(404, "nope"))("http://x/")).status).toBe(404);
  });

  it("a gRPC error's reason, past the SDK's prefix and the status code", () => {
    expect(grpcReason("gRPC error for sendMessageStream: 16 The bearer token is not valid.")).toBe(
      "The bearer token is not valid.",
    );
    expect(grpcReason("16 UNAUTHENTICATED: The bearer token has expired.")).toBe(
      "The bearer token has expired.",
    );
    expect(grpcReason("gRPC error: 16")).toBeUndefined();
    const err = Object.assign(new Error("gRPC error for getTask: 16 No token here."), {
      transport: "grpc",
      status: 16,
    });
    expect(errorMessage(err)).toBe(`No token here. ${TOKEN_HINT}`);
  });
});

describe("a mistyped command", () => {
  it.each([
    ["sned", "send"],
    ["SEND", "send"], // the caps lock on
    ["chta", "chat"],
    ["tsks", "tasks"],
    ["tsak", "task"],
    ["cancle", "cancel"],
    ["dmeo", "demo"],
    ["send", undefined],
    ["serve", undefined],
    ["xyz", undefined],
    ["sendmessage", undefined],
  ])("%j → %j", (word, nearest) => {
    expect(nearestCommand(word, COMMANDS)).toBe(nearest);
  });

  it("counts a swap of two neighbours as one edit", () => {
    expect(editDistance("sned", "send")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});

describe("the remembered conversation's key", () => {
  it("is the normalised origin: the loopback names are one, the default port and a trailing slash dropped", () => {
    const key = "http://localhost:3008";
    for (const url of [
      "http://localhost:3008",
      "http://127.0.0.1:3008/",
      "http://[::1]:3008",
      "HTTP://LOCALHOST:3008//",
    ])
      expect(memoryKey(url)).toBe(key);
    expect(memoryKey("http://127.0.0.1:3009")).toBe("http://localhost:3009");
    expect(memoryKey("https://agent.example:443/agents/web/")).toBe(
      "https://agent.example/agents/web",
    );
    expect(memoryKey("http://other.host:3008")).toBe("http://other.host:3008");
    expect(memoryKey("not a url")).toBe("not a url");
  });
});

describe("a canceled task's cost", () => {
  it("is settled once the task counts the run that was parked", () => {
    const runs = (n: number) => ({ ...EMPTY_USAGE, runs: n });
    expect(isSettled(undefined, undefined)).toBe(false);
    expect(isSettled(runs(0), runs(0))).toBe(false);
    expect(isSettled(undefined, runs(1))).toBe(true);
    expect(isSettled(runs(2), runs(2))).toBe(false);
    expect(isSettled(runs(2), runs(3))).toBe(true);
  });
});
