import { describe, expect, it } from "vitest";
import {
  envelopeProblem,
  isBase64,
  jsonRpcBodyProblem,
  MAX_JSON_DEPTH,
  messageProblem,
  nestedDeeperThan,
  restBodyProblem,
} from "../../../src/http/request-shape.js";

const message = (extra: Record<string, unknown> = {}) => ({
  messageId: "m1",
  role: "ROLE_USER",
  parts: [{ text: "hi" }],
  ...extra,
});

/** `[[[…1…]]]`, `depth` arrays deep. */
const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`);

describe("nestedDeeperThan", () => {
  it("counts arrays and objects, not scalars, and needs no recursion for any depth", () => {
    expect(nestedDeeperThan("x", 0)).toBe(false);
    expect(nestedDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe("isBase64", () => {
  it.each([
    ["", true],
    ["aGVsbG8=", true],
    ["aGVsbG8", true],
    ["aGk-_w==", true],
    ["AAAA", true],
    ["!!!@@@", false],
    ["aGVsbG8=x", false],
    ["A", false],
    ["aGVsbG8==", false],
    ["aGVs bG8=", false],
    ["aGVsbG8\n", false],
  ])("%j → %s", (s, ok) => {
    expect(isBase64(s)).toBe(ok);
  });
});

describe("messageProblem", () => {
  it("accepts a user message of each part kind, protobuf field names and role number included", () => {
    expect(messageProblem(message())).toBeUndefined();
    expect(
      messageProblem(
        message({
          role: 1,
          contextId: "__proto__",
          taskId: "constructor",
          referenceTaskIds: ["a"],
          metadata: { k: [1, { v: null }] },
          parts: [
            { text: "t", metadata: {} },
            { raw: "aGVsbG8=", media_type: "text/plain", filename: "../../etc/passwd" },
            { url: "https://example.com/x", mediaType: "image/png" },
            { data: { any: ["json"] } },
            { data: 5 },
          ],
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    [5, /message must be an object, not number/],
    [[], /message must be an object, not an array/],
    [message({ role: "ROLE_AGENT" }), /message.role must be ROLE_USER.*"ROLE_AGENT"/],
    [message({ role: 2 }), /message.role must be ROLE_USER/],
    [message({ role: "user" }), /message.role must be ROLE_USER/],
    [message({ role: undefined }), /message.role must be ROLE_USER.*null/],
    [message({ messageId: "" }), /messageId must be a non-empty string/],
    [message({ messageId: 7 }), /messageId must be a non-empty string/],
    [message({ contextId: { a: 1 } }), /message.contextId must be a string, not object/],
    [message({ taskId: 3 }), /message.taskId must be a string, not number/],
    [message({ referenceTaskIds: "x" }), /referenceTaskIds must be an array of strings/],
    [message({ referenceTaskIds: ["x", 1] }), /referenceTaskIds\[1\] must be a string/],
    [message({ metadata: "m" }), /message.metadata must be an object, not string/],
    [message({ parts: [] }), /message.parts must be a non-empty array/],
    [message({ parts: "abc" }), /message.parts must be a non-empty array/],
    [message({ parts: [null] }), /parts\[0\] must be an object, not null/],
    [message({ parts: [{ foo: 1 }] }), /parts\[0\] must have exactly one of .* \(found none\)/],
    [message({ parts: [{ text: "a", raw: "AAAA" }] }), /\(found text, raw\)/],
    [message({ parts: [{ text: 5 }] }), /parts\[0\].text must be a string, not number/],
    [message({ parts: [{ raw: "!!!@@@" }] }), /parts\[0\].raw is not valid base64/],
    [message({ parts: [{ url: ["u"] }] }), /parts\[0\].url must be a string, not an array/],
    [message({ parts: [{ text: "a", filename: 1 }] }), /parts\[0\].filename must be a string/],
    [message({ parts: [{ text: "a", mediaType: {} }] }), /parts\[0\].mediaType must be a string/],
    [message({ parts: [{ text: "a", metadata: [] }] }), /parts\[0\].metadata must be an object/],
  ])("refuses %j", (m, problem) => {
    expect(messageProblem(m)).toMatch(problem);
  });
});

describe("envelopeProblem", () => {
  it.each([
    [{ jsonrpc: "2.0", method: "GetTask", id: 1 }, undefined],
    [{ jsonrpc: "2.0", method: "GetTask", id: "x" }, undefined],
    [{ jsonrpc: "2.0", method: "GetTask", id: null }, undefined],
    [{ jsonrpc: "2.0", method: "GetTask" }, undefined],
    [[{ jsonrpc: "2.0", method: "GetTask", id: 1 }], /Batch requests are not supported/],
    ["x", /must be a JSON-RPC request object/],
    [{ jsonrpc: "1.0", method: "GetTask", id: 1 }, /"jsonrpc" must be "2.0"/],
    [{ jsonrpc: "2.0", method: 5, id: 1 }, /"method" must be a non-empty string/],
    [{ jsonrpc: "2.0", method: "", id: 1 }, /"method" must be a non-empty string/],
    [{ jsonrpc: "2.0", method: "GetTask", id: 1.5 }, /"id" must be a string, an integer or null/],
    [{ jsonrpc: "2.0", method: "GetTask", id: { a: 1 } }, /"id" must be/],
  ])("%j → %s", (body, problem) => {
    if (problem === undefined) expect(envelopeProblem(body)).toBeUndefined();
    else expect(envelopeProblem(body)).toMatch(problem);
  });
});

describe("jsonRpcBodyProblem and restBodyProblem", () => {
  const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });

  it("checks the message of the two methods that carry one, on both bindings", () => {
    for (const method of ["SendMessage", "SendStreamingMessage"]) {
      expect(jsonRpcBodyProblem(rpc(method, { message: message() }))).toBeUndefined();
      expect(jsonRpcBodyProblem(rpc(method, { message: message({ role: 2 }) }))).toEqual({
        kind: "invalid_params",
        message: expect.stringMatching(/role/) as unknown,
      });
      expect(jsonRpcBodyProblem(rpc(method, "params"))?.kind).toBe("invalid_params");
    }
    expect(jsonRpcBodyProblem(rpc("GetTask", { id: "__proto__" }))).toBeUndefined();
    for (const path of ["/message:send", "/message:stream", "/t1/message:send"]) {
      expect(restBodyProblem("POST", path, { message: message() })).toBeUndefined();
      expect(restBodyProblem("POST", path, { message: message({ parts: [{}] }) })?.kind).toBe(
        "invalid_params",
      );
    }
    expect(restBodyProblem("POST", "/tasks/t1:cancel", {})).toBeUndefined();
  });

  it("refuses deep nesting as an invalid request, whatever the method or path", () => {
    const deep = { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x", d: nested(70) } };
    expect(jsonRpcBodyProblem(deep)).toEqual({
      kind: "invalid_request",
      message: `The request is nested deeper than ${MAX_JSON_DEPTH} levels.`,
    });
    expect(restBodyProblem("POST", "/tasks/x:cancel", { d: nested(70) })?.kind).toBe(
      "invalid_request",
    );
  });

  it("refuses a bad envelope as an invalid request before looking at the params", () => {
    expect(jsonRpcBodyProblem({ jsonrpc: "2.0", id: [], method: "SendMessage" })).toEqual({
      kind: "invalid_request",
      message: 'Invalid Request: "id" must be a string, an integer or null.',
    });
  });
});
