import { describe, expect, it } from "vitest";
import { changesProcesses } from "../../../src/sessions/live-session.js";
import {
  spareVerdict,
  supplyDecision,
  type SpareAsk,
  type SpareSupply,
  type SpareView,
} from "../../../src/sessions/spares.js";

const spare: SpareView = { alive: true, cwd: "/w", fingerprint: "f1", idleMs: 1_000 };
const ask: SpareAsk = { resumes: false, cwd: "/w", fingerprint: "f1", maxIdleMs: 60_000 };

describe("spareVerdict: whether a spare serves a new conversation", () => {
  it.each<[string, Partial<SpareView>, Partial<SpareAsk>, ReturnType<typeof spareVerdict>]>([
    ["a live spare in the conversation's folder", {}, {}, { kind: "take" }],
    ["a dead one is never handed out", { alive: false }, {}, { kind: "discard", reason: "dead" }],
    [
      "dead beats every other reason",
      { alive: false, fingerprint: "old", idleMs: 120_000 },
      { resumes: true, cwd: "/x" },
      { kind: "discard", reason: "dead" },
    ],
    [
      "started before a settings or CLAUDE.md change",
      { fingerprint: "f0" },
      {},
      { kind: "discard", reason: "settings changed" },
    ],
    [
      "idle past sessions.spareIdleMs",
      { idleMs: 60_000 },
      {},
      { kind: "discard", reason: "idle too long" },
    ],
    ["just under the idle bound", { idleMs: 59_999 }, {}, { kind: "take" }],
    [
      "a resumed conversation cannot use it: kept for another",
      {},
      { resumes: true },
      { kind: "keep", reason: "resumes" },
    ],
    [
      "another folder (a worktree of its own): kept",
      {},
      { cwd: "/w/.claude/worktrees/a" },
      { kind: "keep", reason: "elsewhere" },
    ],
    [
      "a stale spare is discarded even for a conversation it could not serve",
      { fingerprint: "f0" },
      { resumes: true },
      { kind: "discard", reason: "settings changed" },
    ],
  ])("%s", (_name, s, a, expected) => {
    expect(spareVerdict({ ...spare, ...s }, { ...ask, ...a })).toEqual(expected);
  });
});

const supply: SpareSupply = {
  wanted: 1,
  present: 0,
  holding: false,
  starting: false,
  quiet: true,
  room: true,
  site: true,
  closed: false,
};

describe("supplyDecision: whether to start a spare now", () => {
  it.each<[string, Partial<SpareSupply>, ReturnType<typeof supplyDecision>]>([
    ["one wanted, none there, room", {}, { kind: "start" }],
    ["enough there", { present: 1 }, { kind: "wait", reason: "enough" }],
    ["spares off", { wanted: 0 }, { kind: "wait", reason: "enough" }],
    ["two wanted, one there: the next", { wanted: 2, present: 1 }, { kind: "start" }],
    [
      "a conversation that just took one has its first turn to run",
      { holding: true },
      { kind: "wait", reason: "holding" },
    ],
    [
      "new conversations that found no spare are starting their own processes (a burst)",
      { starting: true },
      { kind: "wait", reason: "starting" },
    ],
    [
      "no slot under sessions.maxLive (or someone waits for one)",
      { room: false },
      { kind: "wait", reason: "no room" },
    ],
    ["no spare worktree built yet", { site: false }, { kind: "wait", reason: "no site" }],
    [
      "shutdown beats everything",
      { closed: true, room: false, holding: true },
      { kind: "wait", reason: "closed" },
    ],
  ])("%s", (_name, s, expected) => {
    expect(supplyDecision({ ...supply, ...s })).toEqual(expected);
  });
});

describe("changesProcesses: which session events write the pid file again", () => {
  it.each<[string, Parameters<typeof changesProcesses>[0], boolean, boolean]>([
    ["a new process's first session id: a child to list", "session_id", false, true],
    [
      "a taken spare's first session id: the same process, listed when it started",
      "session_id",
      true,
      false,
    ],
    ["a process ends", "closed", false, true],
    ["a taken spare's process ends", "closed", true, true],
    ["a turn's end changes no process", "run_ended", false, false],
    ["a status changes no process", "status", true, false],
  ])("%s", (_name, event, fromSpare, expected) => {
    expect(changesProcesses(event, fromSpare)).toBe(expected);
  });
});
