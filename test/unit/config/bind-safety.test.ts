import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";
import { StartupError } from "../../../src/common/startup-error.js";
import { checkBindSafety, unsafeBind } from "../../../src/config/bind-safety.js";

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

  it("refuses a non-loopback bind without tokens, and says how to fix it", () => {
    expect(() => checkBindSafety(server({ host: "0.0.0.0" }))).toThrow(StartupError);
    expect(() => checkBindSafety(server({ host: "0.0.0.0" }))).toThrow(
      /Refusing to listen on 0\.0\.0\.0.*tailscale serve.*server\.auth\.tokens.*server\.auth\.oidc.*allowUnauthenticatedRemote/s,
    );
  });

  it("allows it with bearer tokens or an explicit opt-in, not with allowedLogins alone", () => {
    const tokens = [{ name: "ci", sha256: "a".repeat(64) }];
    expect(() => checkBindSafety(server({ host: "0.0.0.0", auth: { tokens } }))).not.toThrow();
    expect(() =>
      checkBindSafety(server({ host: "0.0.0.0", allowUnauthenticatedRemote: true })),
    ).not.toThrow();
    const oidc = { issuer: "https://idp", audience: "a2a", jwksUrl: "https://idp/jwks" };
    expect(() => checkBindSafety(server({ host: "0.0.0.0", auth: { oidc } }))).not.toThrow();
    // Identity headers prove nothing about a peer on another machine.
    expect(() =>
      checkBindSafety(server({ host: "0.0.0.0", allowedLogins: ["me@example.com"] })),
    ).toThrow(StartupError);
    expect(() => checkBindSafety(server({ host: "0.0.0.0", auth: { tokens: [] } }))).toThrow();
  });

  it("holds server.grpc.host, when gRPC is on, to the same rule", () => {
    const tokens = [{ name: "ci", sha256: "a".repeat(64) }];
    const grpc = (g: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      server({ grpc: g, ...extra });
    expect(unsafeBind(grpc({ host: "0.0.0.0" }))).toBeUndefined(); // off: no port
    expect(unsafeBind(grpc({ port: 50051 }))).toBeUndefined(); // loopback default
    expect(unsafeBind(grpc({ port: 50051, host: "0.0.0.0" }))).toEqual({
      key: "server.grpc.host",
      host: "0.0.0.0",
    });
    expect(unsafeBind(grpc({ port: 50051, host: "::" }, { host: "10.0.0.1" }))).toEqual({
      key: "server.host",
      host: "10.0.0.1",
    });
    expect(
      unsafeBind(grpc({ port: 50051, host: "0.0.0.0" }, { auth: { tokens } })),
    ).toBeUndefined();
    const oidc = { issuer: "https://idp", audience: "a2a", jwksUrl: "https://idp/jwks" };
    expect(unsafeBind(grpc({ port: 50051, host: "0.0.0.0" }, { auth: { oidc } }))).toBeUndefined();
    expect(() => checkBindSafety(grpc({ port: 50051, host: "0.0.0.0" }))).toThrow(
      /Refusing to listen on 0\.0\.0\.0 \(server\.grpc\.host\) without authentication.*keep server\.grpc\.host on 127\.0\.0\.1/s,
    );
  });
});
