import { Metadata, status as Status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { TrustedProxies } from "../../../src/http/caller.js";
import type { AuthRefusal } from "../../../src/auth/refusal.js";
import { authInput, refusalStatus } from "../../../src/grpc/auth.js";

const metadata = (entries: [string, string][]) => {
  const md = new Metadata();
  for (const [k, v] of entries) md.add(k, v);
  return md;
};
const trusted = new TrustedProxies(["127.0.0.1", "::1"]);

describe("what the auth decision reads from a gRPC call", () => {
  it.each([
    ["no metadata", [], "127.0.0.1", { authorization: undefined, login: undefined }],
    [
      "a bearer token",
      [["authorization", "Bearer abc"]],
      "127.0.0.1",
      { authorization: "Bearer abc", login: undefined },
    ],
    [
      "two authorization values: joined, so they never verify",
      [
        ["authorization", "Bearer a"],
        ["authorization", "Bearer b"],
      ],
      "127.0.0.1",
      { authorization: "Bearer a, Bearer b", login: undefined },
    ],
    [
      "a login from the trusted proxy, trimmed",
      [["tailscale-user-login", " ada@example.com "]],
      "::ffff:127.0.0.1",
      { authorization: undefined, login: "ada@example.com" },
    ],
    [
      "a login from another peer: ignored",
      [["tailscale-user-login", "ada@example.com"]],
      "127.0.0.2",
      { authorization: undefined, login: undefined },
    ],
    [
      "an empty login: none",
      [["tailscale-user-login", "  "]],
      "127.0.0.1",
      { authorization: undefined, login: undefined },
    ],
    [
      "no peer address: not trusted",
      [["tailscale-user-login", "ada@example.com"]],
      undefined,
      { authorization: undefined, login: undefined },
    ],
  ] as const)("%s", (_name, entries, peer, expected) => {
    expect(authInput(metadata([...entries] as [string, string][]), peer, trusted)).toEqual(
      expected,
    );
  });
});

describe("the status of a refused call", () => {
  it.each([
    [
      { kind: "missing" },
      Status.UNAUTHENTICATED,
      "This agent requires Authorization: Bearer <token>.",
    ],
    [
      { kind: "invalid_token", problem: { kind: "expired" } },
      Status.UNAUTHENTICATED,
      "The token has expired.",
    ],
    [{ kind: "login_forbidden" }, Status.PERMISSION_DENIED, "This login may not call the agent."],
    [
      { kind: "insufficient_scope", missing: ["a2a.call"] },
      Status.PERMISSION_DENIED,
      "The token lacks the scope this agent requires: a2a.call.",
    ],
    [
      { kind: "unavailable", cause: "ECONNREFUSED" },
      Status.UNAVAILABLE,
      "The token cannot be checked right now: the identity provider's keys could not be fetched. Try again later.",
    ],
  ] as const)("%o: %s", (refusal, code, details) => {
    expect(refusalStatus(refusal as AuthRefusal)).toEqual({ code, details });
  });
});
