import { Metadata, status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { decodeErrorInfo, decodeStatus, GRPC_STATUS_DETAILS_BIN } from "@a2a-js/sdk/errors/grpc";
import type { LimitErrorInfo } from "../../../src/contract/limits.js";
import { limitStatus, publicStatus } from "../../../src/grpc/answers.js";

describe("what a gRPC answer may say", () => {
  it("keeps every status but a server fault's, whose text is hidden and returned to be logged", () => {
    const md = new Metadata();
    md.set("grpc-status-details-bin", Buffer.from("secret"));
    expect(
      publicStatus({ code: Status.NOT_FOUND, details: "Task not found: t", metadata: md }),
    ).toEqual({
      status: { code: Status.NOT_FOUND, details: "Task not found: t", metadata: md },
    });
    expect(publicStatus({ code: Status.OK, details: "OK" })).toEqual({
      status: { code: Status.OK, details: "OK" },
    });
    for (const code of [Status.UNKNOWN, Status.INTERNAL]) {
      expect(publicStatus({ code, details: "SQLITE_BUSY at /x", metadata: md })).toEqual({
        status: { code, details: "Internal error.", metadata: null },
        hidden: "SQLITE_BUSY at /x",
      });
    }
    expect(publicStatus({ code: Status.UNKNOWN, details: "Internal error." })).toEqual({
      status: { code: Status.UNKNOWN, details: "Internal error." },
    });
  });
});

describe("a call a per-caller limit refused", () => {
  const info: LimitErrorInfo = {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason: "CONCURRENT_TASK_LIMIT_EXCEEDED",
    domain: "claude-a2a",
    metadata: { limit: "concurrentTasks", caller: "token:ci", max: "1", working: "1" },
  };
  const text =
    "Caller limit reached (concurrentTasks): token:ci may have at most 1 task(s) at once";
  it.each([
    ["the SDK's UNKNOWN", Status.UNKNOWN],
    ["INTERNAL", Status.INTERNAL],
    ["any other code", Status.FAILED_PRECONDITION],
  ])("%s becomes RESOURCE_EXHAUSTED with the refusal's text and ErrorInfo", (_name, code) => {
    const out = limitStatus({ code, details: text, metadata: new Metadata() }, info);
    expect([out.code, out.details]).toEqual([Status.RESOURCE_EXHAUSTED, text]);
    const bin = out.metadata?.get(GRPC_STATUS_DETAILS_BIN)[0] as Buffer;
    const status = decodeStatus(bin);
    expect([status.code, status.message]).toEqual([Status.RESOURCE_EXHAUSTED, text]);
    expect(status.details.map((d) => d.typeUrl)).toEqual([info["@type"]]);
    const decoded = decodeErrorInfo(status.details[0]!.value);
    expect({ ...decoded, metadata: { ...decoded.metadata } }).toEqual({
      reason: info.reason,
      domain: info.domain,
      metadata: info.metadata,
    });
    // Not a fault: the text reaches the client.
    expect(publicStatus(out)).toEqual({ status: out });
  });
  it("leaves a call no limit refused, and a successful one, as they are", () => {
    const status = { code: Status.INTERNAL, details: "boom" };
    expect(limitStatus(status, undefined)).toBe(status);
    const ok = { code: Status.OK, details: "OK" };
    expect(limitStatus(ok, info)).toBe(ok);
  });
});
