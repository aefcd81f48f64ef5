import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import { planResume } from "../../../src/sessions/recovery.js";
import { SessionMap } from "../../../src/store/session-map.js";

let dir: string;
const k = (key: string) => key as ConversationKey;
const open = () =>
  SessionMap.open({
    cwd: dir,
    logger: { warn: () => undefined },
    now: () => new Date("2025-01-02T03:04:05.678Z"),
  });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claude-a2a-point-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("SessionMap: a rewind's or fork's start point survives a restart", () => {
  it("keeps the point on disk until a session of the conversation starts", async () => {
    const map = await open();
    await map.set(k("rk"), "s-1");
    await map.point(k("rk"), "s-1", { resumeAt: "a-1" });
    await map.point(k("fk"), "s-src", { resumeAt: "a-9", fork: true });
    // The session it names is not "the conversation's" until one started from the point.
    expect(map.names(k("rk"), "s-1")).toBe(false);
    const reopened = await open();
    expect(reopened.get(k("rk"))).toMatchObject({ sessionId: "s-1", resumeAt: "a-1" });
    expect(reopened.get(k("fk"))).toMatchObject({
      sessionId: "s-src",
      resumeAt: "a-9",
      fork: true,
    });
    // The rewound session ran (it keeps its id): the point is spent; the fork's, by its new id.
    await reopened.spend(k("rk"));
    expect(reopened.names(k("rk"), "s-1")).toBe(true);
    await reopened.set(k("fk"), "s-fork");
    expect(reopened.names(k("fk"), "s-fork")).toBe(true);
    expect((await open()).get(k("rk"))).toEqual({
      sessionId: "s-1",
      updatedAt: "2025-01-02T03:04:05.678Z",
    });
  });
});

describe("planResume with a start point from the map", () => {
  const base = { reset: undefined, poisoned: false, rewindPoint: () => undefined };
  it.each<[string, Parameters<typeof planResume>[0], ReturnType<typeof planResume>]>([
    [
      "a rewind's point",
      { ...base, mapped: "s-1", point: { resumeAt: "a-1" } },
      { resume: "s-1", resumeAt: "a-1", dropMapping: false },
    ],
    [
      "a fork's point",
      { ...base, mapped: "s-src", point: { resumeAt: "a-9", fork: true } },
      { resume: "s-src", resumeAt: "a-9", fork: true, dropMapping: false },
    ],
    [
      "a point wins over a rejected prompt's rewind",
      { ...base, mapped: "s-1", poisoned: true, point: { resumeAt: "a-1" } },
      { resume: "s-1", resumeAt: "a-1", dropMapping: false },
    ],
    [
      "no point: the mapped session as it is",
      { ...base, mapped: "s-1", point: {} },
      { resume: "s-1", dropMapping: false },
    ],
  ])("%s", (_name, input, plan) => {
    expect(planResume(input)).toEqual(plan);
  });
});
