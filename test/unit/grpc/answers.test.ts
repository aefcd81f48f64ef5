import { Metadata, status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { publicStatus } from "../../../src/grpc/answers.js";

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
