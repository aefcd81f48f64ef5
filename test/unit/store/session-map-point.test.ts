import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationKey } from "../../../src/identity/conversation.js";
import { pino } from "pino";
import type { BranchEnd } from "../../../src/claude/index.js";
import { planResume, SessionRecovery, type ResumePlan } from "../../../src/sessions/recovery.js";
import type { SessionEntry, SessionMap } from "../../../src/store/session-map.js";
import { openLocalSessionMap } from "../../../src/store/open-session-map.js";

let dir: string;
const k = (key: string) => key as ConversationKey;
const open = () =>
  openLocalSessionMap({
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
    // The rewound session ran (it keeps its id): the point is kept, marked, across a reopen;
    // a fork's runs into its new id, which spends it.
    await reopened.ran(k("rk"), "p-gamma");
    await reopened.ran(k("rk"), "p-later");
    await reopened.ran(k("fk"), "p-lemon");
    expect((await open()).get(k("rk"))).toMatchObject({ resumeAt: "a-1", branch: "p-gamma" });
    expect((await open()).get(k("fk"))).not.toHaveProperty("branch");
    await reopened.set(k("fk"), "s-fork");
    expect(reopened.names(k("fk"), "s-fork")).toBe(true);
    // The runtime recorded the branch's end: spent.
    await reopened.spend(k("rk"));
    expect(reopened.names(k("rk"), "s-1")).toBe(true);
    expect((await open()).get(k("rk"))).toEqual({
      sessionId: "s-1",
      updatedAt: "2025-01-02T03:04:05.678Z",
    });
  });

  it("marks nothing without a point", async () => {
    const map = await open();
    await map.set(k("c"), "s-1");
    await map.ran(k("c"), "p-1");
    await map.ran(k("unknown"), "p-1");
    expect(map.get(k("c"))).toEqual({ sessionId: "s-1", updatedAt: "2025-01-02T03:04:05.678Z" });
    expect(map.get(k("unknown"))).toBeUndefined();
  });
});

describe("SessionRecovery: a rewound branch that ran, resumed as the runtime's record says", () => {
  const recovery = (map: SessionMap, end: BranchEnd | Error) =>
    new SessionRecovery({
      sessionMap: map,
      logger: pino({ level: "silent" }),
      recordBranch: () => {
        if (end instanceof Error) throw end;
        return end;
      },
      isLive: () => false,
    });
  it.each<[string, BranchEnd | Error, ResumePlan, SessionEntry]>([
    [
      "recorded by the runtime: a plain resume, the point spent",
      { kind: "recorded" },
      { resume: "s-1", dropMapping: false },
      { sessionId: "s-1", updatedAt: "2025-01-02T03:04:05.678Z" },
    ],
    [
      "unrecorded (its record written for it): a plain resume, the point spent",
      { kind: "unrecorded", leaf: "a-3" },
      { resume: "s-1", dropMapping: false },
      { sessionId: "s-1", updatedAt: "2025-01-02T03:04:05.678Z" },
    ],
    [
      "nothing of the branch written: at the point, which the next run marks again",
      { kind: "unwritten" },
      { resume: "s-1", resumeAt: "a-1", dropMapping: false },
      { sessionId: "s-1", updatedAt: "2025-01-02T03:04:05.678Z", resumeAt: "a-1" },
    ],
    [
      "the record could not be written: a plain resume as before, the point spent",
      new Error("EACCES"),
      { resume: "s-1", dropMapping: false },
      { sessionId: "s-1", updatedAt: "2025-01-02T03:04:05.678Z" },
    ],
  ])("%s", async (_name, end, plan, entry) => {
    const map = await open();
    await map.point(k("rk"), "s-1", { resumeAt: "a-1" });
    await map.ran(k("rk"), "p-3");
    expect(recovery(map, end).next(k("rk"))).toEqual(plan);
    await map.flush();
    expect((await open()).get(k("rk"))).toEqual(entry);
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
    [
      "a rewound branch ran: a plain resume, once the runtime's record names the branch",
      { ...base, mapped: "s-1", point: { resumeAt: "a-1", branch: "p-3" } },
      { resume: "s-1", recordBranch: { prompt: "p-3", after: "a-1" }, dropMapping: false },
    ],
    [
      "a rewound branch ran, then a prompt was rejected: resumed before that prompt",
      {
        ...base,
        mapped: "s-1",
        poisoned: true,
        rewindPoint: () => "a-7",
        point: { resumeAt: "a-1", branch: "p-3" },
      },
      { resume: "s-1", resumeAt: "a-7", dropMapping: false },
    ],
    [
      "a fork's point (never marked with a branch) is the point",
      { ...base, mapped: "s-src", point: { resumeAt: "a-9", fork: true } },
      { resume: "s-src", resumeAt: "a-9", fork: true, dropMapping: false },
    ],
  ])("%s", (_name, input, plan) => {
    expect(planResume(input)).toEqual(plan);
  });
});
