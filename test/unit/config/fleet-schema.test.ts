import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";

describe("fleet config", () => {
  it("defaults: no instance id (derived), 30 s lease renewed every 5 s", () => {
    const config = configSchema.parse({});
    expect(config.server.instanceId).toBeUndefined();
    expect(config.fleet).toEqual({
      leaseMs: 30_000,
      heartbeatMs: 5_000,
      eventRetentionMs: 600_000,
      commandTimeoutMs: 10_000,
    });
  });

  it("refuses a heartbeat that is not below the lease", () => {
    const result = configSchema.safeParse({ fleet: { leaseMs: 2_000, heartbeatMs: 2_000 } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ["fleet", "heartbeatMs"],
      message: "fleet.heartbeatMs must be below fleet.leaseMs",
    });
  });

  it("takes server.instanceId as given", () => {
    expect(configSchema.parse({ server: { instanceId: "build-1" } }).server.instanceId).toBe(
      "build-1",
    );
  });
});
