import { describe, expect, it } from "vitest";
import { keepaliveOptions } from "../../../src/grpc/server.js";

describe("the gRPC server's keepalive (streaming.keepAliveMs)", () => {
  it.each([
    [15_000, { "grpc.keepalive_time_ms": 15_000, "grpc.keepalive_timeout_ms": 20_000 }],
    [200, { "grpc.keepalive_time_ms": 200, "grpc.keepalive_timeout_ms": 20_000 }],
    [0, {}],
    [undefined, {}],
  ])("%s ms: %j", (ms, options) => {
    expect(keepaliveOptions(ms)).toEqual(options);
  });
});
