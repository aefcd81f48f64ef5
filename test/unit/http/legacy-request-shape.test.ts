import { describe, expect, it } from "vitest";
import {
  isLegacyRestPath,
  legacyJsonRpcBodyProblem,
  legacyMessageProblem,
  legacyRestBodyProblem,
  legacyRestMessageProblem,
} from "../../../src/http/legacy-request-shape.js";

/** A v0.3 JSON-RPC message, as the v0.3 client sends it. */
const message = (extra: Record<string, unknown> = {}) => ({
  kind: "message",
  messageId: "m1",
  role: "user",
  parts: [{ kind: "text", text: "hi" }],
  ...extra,
});

/** A v0.3 REST (ProtoJSON) message. */
const restMessage = (extra: Record<string, unknown> = {}) => ({
  messageId: "m1",
  role: "ROLE_USER",
  content: [{ text: "hi" }],
  ...extra,
});

/** The problem is the text, or matches the pattern, a row names. */
function expectProblem(problem: string | undefined, why: string | RegExp): void {
  if (typeof why === "string") expect(problem).toBe(why);
  else expect(problem).toMatch(why);
}

describe("legacyMessageProblem (v0.3 JSON-RPC)", () => {
  it.each([
    [{}],
    [{ contextId: "c", taskId: "t", referenceTaskIds: ["a"], extensions: ["u"], metadata: {} }],
    [{ parts: [{ kind: "file", file: { bytes: "aGk=", name: "a.txt", mimeType: "text/plain" } }] }],
    [{ parts: [{ kind: "file", file: { uri: "https://example.com/x" } }] }],
    [{ parts: [{ kind: "data", data: { answers: { q: "a" } }, metadata: { x: 1 } }] }],
  ])("takes %j", (extra) => {
    expect(legacyMessageProblem(message(extra))).toBeUndefined();
  });

  it.each([
    ["not an object", "hi", "message must be an object, not string"],
    [
      "agent role",
      message({ role: "agent" }),
      'message.role must be "user": a client sends user messages only (got "agent")',
    ],
    ["v1.0 role", message({ role: "ROLE_USER" }), /message\.role must be "user"/],
    ["no id", message({ messageId: "" }), "message.messageId must be a non-empty string"],
    ["number context", message({ contextId: 5 }), "message.contextId must be a string, not number"],
    ["no parts", message({ parts: [] }), "message.parts must be a non-empty array of parts"],
    [
      "v1.0 parts",
      message({ parts: [{ text: "hi" }] }),
      /parts\[0\]\.kind must be "text", "file" or "data" \(got null\)/,
    ],
    [
      "text missing",
      message({ parts: [{ kind: "text" }] }),
      "message.parts[0].text must be a string, not null",
    ],
    [
      "file without content",
      message({ parts: [{ kind: "file", file: {} }] }),
      "message.parts[0].file must have exactly one of bytes, uri (found none)",
    ],
    [
      "file with both",
      message({ parts: [{ kind: "file", file: { bytes: "", uri: "x" } }] }),
      "message.parts[0].file must have exactly one of bytes, uri (found bytes, uri)",
    ],
    [
      "bad base64",
      message({ parts: [{ kind: "file", file: { bytes: "a" } }] }),
      "message.parts[0].file.bytes is not valid base64",
    ],
    [
      "number uri",
      message({ parts: [{ kind: "file", file: { uri: 1 } }] }),
      "message.parts[0].file.uri must be a string, not number",
    ],
    [
      "data not object",
      message({ parts: [{ kind: "data", data: [1] }] }),
      "message.parts[0].data must be an object, not an array",
    ],
    [
      "bad metadata",
      message({ parts: [{ kind: "text", text: "x", metadata: "m" }] }),
      "message.parts[0].metadata must be an object, not string",
    ],
  ])("refuses %s", (_name, input, why) => {
    expectProblem(legacyMessageProblem(input), why);
  });
});

describe("legacyRestMessageProblem (v0.3 HTTP+JSON)", () => {
  it.each([
    [{}],
    [{ role: 1, message_id: "m2", messageId: undefined }],
    [{ content: [{ file: { fileWithBytes: "aGk=", mimeType: "text/plain" } }] }],
    [{ content: [{ file: { file_with_uri: "https://example.com/x" } }] }],
    [{ content: [{ data: { data: { decision: "allow" } } }] }],
  ])("takes %j", (extra) => {
    expect(legacyRestMessageProblem(restMessage(extra))).toBeUndefined();
  });

  it.each([
    ["agent role", restMessage({ role: "ROLE_AGENT" }), /message\.role must be ROLE_USER/],
    [
      "no content",
      restMessage({ content: [] }),
      "message.content must be a non-empty array of parts",
    ],
    [
      "JSON-RPC parts",
      restMessage({ content: undefined, parts: [{ kind: "text", text: "x" }] }),
      "message.content must be a non-empty array of parts",
    ],
    [
      "two contents",
      restMessage({ content: [{ text: "a", data: { data: {} } }] }),
      "message.content[0] must have exactly one of text, file, data (found text, data)",
    ],
    [
      "bad data",
      restMessage({ content: [{ data: { x: 1 } }] }),
      'message.content[0].data must be {"data": <object>}',
    ],
    [
      "bad bytes",
      restMessage({ content: [{ file: { fileWithBytes: "*" } }] }),
      "message.content[0].file.fileWithBytes is not valid base64",
    ],
  ])("refuses %s", (_name, input, why) => {
    expectProblem(legacyRestMessageProblem(input), why);
  });
});

describe("legacyJsonRpcBodyProblem and legacyRestBodyProblem", () => {
  const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });

  it("checks the message of message/send and message/stream only", () => {
    for (const method of ["message/send", "message/stream"]) {
      expect(legacyJsonRpcBodyProblem(rpc(method, { message: message() }))).toBeUndefined();
      expect(
        legacyJsonRpcBodyProblem(rpc(method, { message: message({ role: "agent" }) })),
      ).toEqual({
        kind: "invalid_params",
        message: 'message.role must be "user": a client sends user messages only (got "agent")',
      });
    }
    expect(legacyJsonRpcBodyProblem(rpc("tasks/get", { id: "t" }))).toBeUndefined();
    expect(legacyJsonRpcBodyProblem({ jsonrpc: "1.0", method: "x" })?.kind).toBe("invalid_request");
  });

  it("checks v0.3's REST message under `message` or `request`, on /v1/ paths", () => {
    const path = "/v1/message:send";
    expect(isLegacyRestPath(path)).toBe(true);
    expect(isLegacyRestPath("/message:send")).toBe(false);
    expect(legacyRestBodyProblem("POST", path, { message: restMessage() })).toBeUndefined();
    expect(legacyRestBodyProblem("POST", path, { request: restMessage() })).toBeUndefined();
    expect(legacyRestBodyProblem("POST", "/v1/message:stream", {})).toEqual({
      kind: "invalid_params",
      message: "message must be an object, not undefined",
    });
    expect(legacyRestBodyProblem("POST", "/v1/tasks/t:cancel", {})).toBeUndefined();
  });
});
