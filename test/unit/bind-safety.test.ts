import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";
import { checkBindSafety, StartupError } from "../../src/server.js";

const server = (s: Record<string, unknown>) => ({
  ...configSchema.parse({ server: s }).server,
  publicUrl: "http://localhost:3008",
});

describe("bind safety", () => {
  it("allows loopback addresses without authentication", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) {
      expect(() => checkBindSafety(server({ host }))).not.toThrow();
    }
  });

  it("refuses a non-loopback bind with no allowedLogins, and says how to fix it", () => {
    expect(() => checkBindSafety(server({ host: "0.0.0.0" }))).toThrow(StartupError);
    expect(() => checkBindSafety(server({ host: "0.0.0.0" }))).toThrow(
      /Refusing to listen on 0\.0\.0\.0.*server\.allowedLogins.*allowUnauthenticatedRemote/s,
    );
  });

  it("allows it with allowedLogins or an explicit opt-in", () => {
    expect(() =>
      checkBindSafety(server({ host: "0.0.0.0", allowedLogins: ["me@example.com"] })),
    ).not.toThrow();
    expect(() =>
      checkBindSafety(server({ host: "0.0.0.0", allowUnauthenticatedRemote: true })),
    ).not.toThrow();
    expect(() => checkBindSafety(server({ host: "0.0.0.0", allowedLogins: [] }))).toThrow();
  });
});
