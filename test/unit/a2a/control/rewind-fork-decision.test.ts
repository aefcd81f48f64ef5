import { describe, expect, it } from "vitest";
import {
  checkTarget,
  controlIntent,
  type ControlIntent,
  type TargetQuestion,
} from "../../../../src/a2a/control/rewind-fork-decision.js";

const on = { rewind: true, fork: true };
const ask = (metadata: Record<string, unknown> | undefined, over: object = {}) =>
  controlIntent({ metadata, extensionActive: true, enabled: on, hasTaskId: false, ...over });
const refused = (reason: string | RegExp) => ({
  kind: "refuse",
  reason: expect.stringMatching(reason) as unknown,
});

describe("controlIntent: what metadata.rewindTo / dryRun / forkOf ask", () => {
  it.each<[string, Record<string, unknown> | undefined, object, unknown]>([
    ["no metadata", undefined, {}, { kind: "none" }],
    ["other keys only", { steer: "now" }, {}, { kind: "none" }],
    ["a rewind", { rewindTo: "t2" }, {}, { kind: "rewind", to: "t2", dryRun: false }],
    ["a dry run", { rewindTo: "t2", dryRun: true }, {}, { kind: "rewind", to: "t2", dryRun: true }],
    [
      "dryRun false",
      { rewindTo: "t2", dryRun: false },
      {},
      { kind: "rewind", to: "t2", dryRun: false },
    ],
    ["a fork", { forkOf: "t2" }, {}, { kind: "fork", of: "t2" }],
    ["dryRun alone", { dryRun: true }, {}, refused(/only with metadata.rewindTo/)],
    [
      "dryRun on a fork",
      { forkOf: "t2", dryRun: true },
      {},
      refused(/only with metadata.rewindTo/),
    ],
    ["both", { rewindTo: "a", forkOf: "b" }, {}, refused(/both/)],
    ["no header", { rewindTo: "t2" }, { extensionActive: false }, refused(/A2A-Extensions/)],
    ["no header, fork", { forkOf: "t2" }, { extensionActive: false }, refused(/A2A-Extensions/)],
    ["with a taskId", { rewindTo: "t2" }, { hasTaskId: true }, refused(/without a taskId/)],
    [
      "rewind off",
      { rewindTo: "t2" },
      { enabled: { rewind: false, fork: true } },
      refused(/rewind control is off/),
    ],
    [
      "fork off",
      { forkOf: "t2" },
      { enabled: { rewind: true, fork: false } },
      refused(/fork control is off/),
    ],
    ["a number", { rewindTo: 7 }, {}, refused(/must be a task id \(got 7\)/)],
    ["an empty id", { forkOf: "" }, {}, refused(/must be a task id/)],
    ["a path", { rewindTo: "../x" }, {}, refused(/must be a task id/)],
    ["dryRun not boolean", { rewindTo: "t2", dryRun: "yes" }, {}, refused(/true or false/)],
  ])("%s", (_name, metadata, over, expected) => {
    expect(ask(metadata, over)).toEqual(expected);
  });
});

const rewind: Extract<ControlIntent, { kind: "rewind" }> = {
  kind: "rewind",
  to: "t2",
  dryRun: false,
};
const fork: Extract<ControlIntent, { kind: "fork" }> = { kind: "fork", of: "t2" };
const record = { sessionId: "s", promptUuid: "u", startCommit: "a", endCommit: "b" };
const target = { contextId: "c1", ended: true, record };
const base: TargetQuestion = {
  intent: rewind,
  target,
  contextId: "c1",
  othersActive: 0,
  othersInContext: 0,
  worktree: false,
};

describe("checkTarget: whether the named task can be rewound to or forked from", () => {
  it.each<[string, Partial<TargetQuestion>, string | undefined]>([
    ["a rewind within its context", {}, undefined],
    ["not the caller's (or no such task)", { target: undefined }, "is not one of your tasks"],
    ["another context's task", { contextId: "c2" }, "is not in this context"],
    [
      "while another task runs",
      { othersActive: 1 },
      "while another task of this conversation is running",
    ],
    ["a task still running", { target: { ...target, ended: false } }, "has not ended yet"],
    ["no record", { target: { ...target, record: undefined } }, "has no record"],
    ["no prompt recorded", { target: { ...target, record: { sessionId: "s" } } }, "has no record"],
    [
      "worktree without a commit",
      { worktree: true, target: { ...target, record: { sessionId: "s", promptUuid: "u" } } },
      "no recorded commit",
    ],
    ["a worktree rewind", { worktree: true }, undefined],
    ["a fork into a new context", { intent: fork, contextId: "c9" }, undefined],
    ["a fork into its own context", { intent: fork }, "with a new contextId"],
    [
      "a fork into a used context",
      { intent: fork, contextId: "c9", othersInContext: 1 },
      "has tasks already",
    ],
    [
      "a fork while its source runs another task",
      { intent: fork, contextId: "c9", othersActive: 1 },
      undefined,
    ],
    [
      "a worktree fork without an end commit",
      {
        intent: fork,
        contextId: "c9",
        worktree: true,
        target: { ...target, record: { sessionId: "s", promptUuid: "u", startCommit: "a" } },
      },
      "no recorded commit",
    ],
  ])("%s", (_name, over, refusal) => {
    const result = checkTarget({ ...base, ...over });
    if (refusal === undefined) expect(result).toEqual({ ok: true });
    else expect(result.ok === false && result.reason).toContain(refusal);
  });
});
