import { describe, expect, it } from "vitest";
import {
  eventPrunable,
  leaseExpired,
  pruneCutoffs,
  recoveryVerdict,
  type RecoveryInput,
} from "../../../src/fleet/decisions.js";
import { deriveInstanceId, instanceIdOf } from "../../../src/fleet/instance-id.js";

const NOW = 1_000_000;
const live = { instanceId: "a", expiresAt: NOW + 1 };
const dead = { instanceId: "a", expiresAt: NOW };

describe("leaseExpired", () => {
  it.each([
    ["a lease that holds past now", live, false],
    ["a lease that ends now", dead, true],
    ["no lease at all", undefined, true],
  ])("%s", (_name, lease, expired) => {
    expect(leaseExpired(lease, NOW)).toBe(expired);
  });
});

describe("recoveryVerdict: who may fail an unfinished task", () => {
  const base: RecoveryInput = {
    owner: "a",
    self: "b",
    atStartup: true,
    ownerLease: live,
    now: NOW,
  };
  it.each<[string, Partial<RecoveryInput>, ReturnType<typeof recoveryVerdict>]>([
    ["a live instance's task, at startup", {}, { fail: undefined }],
    ["a live instance's task, in a sweep", { atStartup: false }, { fail: undefined }],
    [
      "a dead instance's task, at startup",
      { ownerLease: dead },
      { fail: "ownerLost", instance: "a" },
    ],
    [
      "a dead instance's task, in a sweep",
      { ownerLease: dead, atStartup: false },
      { fail: "ownerLost", instance: "a" },
    ],
    ["an owner with no lease row", { ownerLease: undefined }, { fail: "ownerLost", instance: "a" }],
    ["this instance's own task, at its startup", { owner: "b" }, { fail: "restart" }],
    [
      "this instance's own task, in its sweep (it runs it)",
      { owner: "b", atStartup: false, ownerLease: dead },
      { fail: undefined },
    ],
    ["an ownerless task, at startup", { owner: undefined }, { fail: "restart" }],
    ["an ownerless task, in a sweep", { owner: undefined, atStartup: false }, { fail: undefined }],
  ])("%s", (_name, change, verdict) => {
    expect(recoveryVerdict({ ...base, ...change })).toEqual(verdict);
  });
});

describe("eventPrunable", () => {
  const policy = { graceMs: 100, retentionMs: 1_000 };
  it.each<[string, { seq: number; createdAt: number }, number[], boolean]>([
    ["read by every subscriber, past the grace", { seq: 5, createdAt: NOW - 100 }, [5, 9], true],
    ["read by every subscriber, within the grace", { seq: 5, createdAt: NOW - 99 }, [5], false],
    ["no subscriber, past the grace", { seq: 5, createdAt: NOW - 100 }, [], true],
    ["a subscriber has not read it", { seq: 5, createdAt: NOW - 500 }, [4, 9], false],
    ["unread but past the retention", { seq: 5, createdAt: NOW - 1_000 }, [1], true],
  ])("%s", (_name, event, cursors, prunable) => {
    expect(eventPrunable(event, cursors, NOW, policy)).toBe(prunable);
  });

  it("pruneCutoffs are the instants the rule compares with", () => {
    expect(pruneCutoffs(NOW, policy)).toEqual({ read: NOW - 100, any: NOW - 1_000 });
  });
});

describe("instance ids", () => {
  it("are stable for one host and workspace, and differ between workspaces", () => {
    const a = deriveInstanceId("build-1", "/srv/work/api");
    expect(a).toBe(deriveInstanceId("build-1", "/srv/work/api/"));
    expect(a).toMatch(/^build-1\/api-[0-9a-f]{8}$/);
    expect(deriveInstanceId("build-1", "/srv/other/api")).not.toBe(a);
    expect(deriveInstanceId("build-2", "/srv/work/api")).not.toBe(a);
  });

  it("server.instanceId wins over the derived default", () => {
    expect(instanceIdOf("fleet-a", "h", "/w")).toBe("fleet-a");
    expect(instanceIdOf(undefined, "h", "/w")).toBe(deriveInstanceId("h", "/w"));
  });
});
