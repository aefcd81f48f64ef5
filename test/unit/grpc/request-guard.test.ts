import { Metadata, status as Status } from "@grpc/grpc-js";
import { decodeErrorInfo, decodeStatus, GRPC_STATUS_DETAILS_BIN } from "@a2a-js/sdk/errors/grpc";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { describe, expect, it } from "vitest";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { a2aErrorStatus, requestProblem, versionProblem } from "../../../src/grpc/request-guard.js";
import { a2aServiceDefinition, MalformedRequest } from "../../../src/grpc/service.js";

const part = (text: string) => ({
  content: { $case: "text" as const, value: text },
  mediaType: "",
  filename: "",
  metadata: undefined,
});
const send = (message: Record<string, unknown> | undefined) => ({
  tenant: "",
  message: message && {
    messageId: "m-1",
    contextId: "",
    taskId: "",
    role: 1,
    parts: [part("hi")],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...message,
  },
  configuration: undefined,
  metadata: undefined,
});
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe("what is wrong with a gRPC request", () => {
  it.each([
    ["a valid message", "SendMessage", send({}), undefined],
    ["no message", "SendMessage", send(undefined), "message must be an object, not undefined"],
    [
      "an agent's message",
      "SendStreamingMessage",
      send({ role: 2 }),
      /^message.role must be ROLE_USER/,
    ],
    ["no role", "SendMessage", send({ role: 0 }), /^message.role must be ROLE_USER/],
    [
      "no messageId",
      "SendMessage",
      send({ messageId: "" }),
      "message.messageId must be a non-empty string",
    ],
    [
      "no parts",
      "SendMessage",
      send({ parts: [] }),
      "message.parts must be a non-empty array of parts",
    ],
    [
      "a part without content",
      "SendMessage",
      send({ parts: [{ content: undefined, mediaType: "", filename: "", metadata: undefined }] }),
      "message.parts[0] must have exactly one of text, raw, url or data (found none)",
    ],
    [
      "data nested deeper than 64 levels",
      "SendMessage",
      send({ metadata: nested(70) }),
      "The request is nested deeper than 64 levels.",
    ],
    ["a GetTask", "GetTask", { tenant: "", id: "t", historyLength: undefined }, undefined],
    [
      "a CancelTask with deep metadata",
      "CancelTask",
      { tenant: "", id: "t", metadata: nested(70) },
      "The request is nested deeper than 64 levels.",
    ],
    [
      "bytes that did not decode",
      "GetTask",
      new MalformedRequest("premature EOF"),
      "The request is not a valid GetTask request message (premature EOF).",
    ],
  ] as const)("%s", (_name, rpc, request, expected) => {
    const problem = requestProblem(rpc, request);
    if (expected === undefined) expect(problem).toBeUndefined();
    else if (typeof expected === "string") expect(problem).toBe(expected);
    else expect(problem).toMatch(expected);
  });

  it("decodes what does not decode to a MalformedRequest, never a throw", () => {
    const definition = a2aServiceDefinition();
    const decode = definition.getTask?.requestDeserialize as (b: Buffer) => unknown;
    expect(decode(Buffer.from([0x0a, 0x05, 0x01]))).toEqual(new MalformedRequest("premature EOF"));
    expect(
      decode(A2AService.getTask.requestSerialize({ tenant: "", id: "t", historyLength: 2 })),
    ).toEqual({
      tenant: "",
      id: "t",
      historyLength: 2,
    });
    expect(Object.keys(definition).sort()).toEqual(Object.keys(A2AService).sort());
  });

  it("answers a malformed request as the SDK answers RequestMalformed: INVALID_ARGUMENT, ErrorInfo", () => {
    const status = a2aErrorStatus(
      new RequestMalformedError("message.parts must be a non-empty array of parts"),
    );
    expect(status.code).toBe(Status.INVALID_ARGUMENT);
    expect(status.details).toBe("message.parts must be a non-empty array of parts");
    const bin = (status.metadata as InstanceType<typeof Metadata>).get(
      GRPC_STATUS_DETAILS_BIN,
    )[0] as Buffer;
    const detail = decodeStatus(bin).details[0];
    expect(detail && decodeErrorInfo(detail.value).reason).toBe("INVALID_PARAMS");
  });

  it.each([
    ["1.0", undefined],
    [" 1.0 ", undefined],
    [undefined, /^This call has no a2a-version metadata, which A2A reads as protocol version 0\.3/],
    ["", /^This call has no a2a-version metadata/],
    [
      "0.3",
      /^The requested A2A protocol version '0\.3' is not supported\. Supported versions: 1\.0\. Send the metadata a2a-version: 1\.0 with every call\.$/,
    ],
    ["2.0", /^The requested A2A protocol version '2\.0' is not supported/],
  ] as const)("a2a-version %j: refused with %s (undefined: served)", (value, expected) => {
    const md = new Metadata();
    if (value !== undefined) md.set("a2a-version", value);
    const problem = versionProblem(md);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
