import { describe, expect, it } from "vitest";
import {
  BackgroundWait,
  settleFate,
  type SettleFate,
} from "../../../../src/a2a/task/background-wait.js";
import type { TurnPolicy } from "../../../../src/a2a/task/environment.js";
import type { TaskPhase } from "../../../../src/a2a/task/lifecycle.js";
import { ManualTimers } from "../support/agent.js";
import { ENDED_PHASES, LIVE_PHASES } from "../support/phases.js";

const phases: Record<string, TaskPhase> = { ...LIVE_PHASES, ended: ENDED_PHASES.completed };

/** "phase runActive workPending" → fate; every other combination stays. */
const FATES = new Map<string, SettleFate>([
  ["queued false false", "complete"],
  ["starting false false", "complete"],
  ["running false false", "complete"],
  ["waiting false false", "complete"],
  ["running false true", "wait"],
]);

describe("settleFate", () => {
  for (const [name, phase] of Object.entries(phases)) {
    for (const runActive of [false, true]) {
      for (const workPending of [false, true]) {
        const key = `${name} ${runActive} ${workPending}`;
        const expected = FATES.get(key) ?? "stay";
        it(`${key} → ${expected}`, () => {
          expect(settleFate(phase, runActive, workPending)).toBe(expected);
        });
      }
    }
  }
});

const policy: Pick<TurnPolicy, "backgroundTasks" | "backgroundWaitTimeoutMs"> = {
  backgroundTasks: "wait",
  backgroundWaitTimeoutMs: 5_000,
};
const job = (taskId: string) => ({ taskId, description: `job ${taskId}` });

describe("BackgroundWait: what it waits for", () => {
  const rows: {
    name: string;
    mode: TurnPolicy["backgroundTasks"];
    /** Calls in order; each yields what it returned. */
    steps: readonly (["track" | "finished" | "consumed", string] | ["pending" | "running"])[];
    expected: readonly unknown[];
  }[] = [
    {
      name: "detach: nothing is tracked, nothing pends",
      mode: "detach",
      steps: [["track", "t1"], ["pending"], ["finished", "t1"]],
      expected: [false, false, false],
    },
    {
      name: "wait: tracked once; a duplicate launch is ignored",
      mode: "wait",
      steps: [["track", "t1"], ["track", "t1"], ["pending"], ["running"]],
      expected: [true, false, true, [job("t1")]],
    },
    {
      name: "finished work still pends until its wake began, but no longer runs",
      mode: "wait",
      steps: [["track", "t1"], ["finished", "t1"], ["finished", "t1"], ["pending"], ["running"]],
      expected: [true, true, false, true, []],
    },
    {
      name: "consumed: nothing left to wait for; a second notice changes nothing",
      mode: "wait",
      steps: [["track", "t1"], ["consumed", "t1"], ["consumed", "t1"], ["pending"]],
      expected: [true, true, false, false],
    },
    {
      name: "running lists what still works, in launch order",
      mode: "wait",
      steps: [["track", "t2"], ["track", "t1"], ["track", "t3"], ["finished", "t1"], ["running"]],
      expected: [true, true, true, true, [job("t2"), job("t3")]],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const wait = new BackgroundWait({ ...policy, backgroundTasks: row.mode }, new ManualTimers());
      const got = row.steps.map((step) => {
        switch (step[0]) {
          case "track":
            return wait.track(job(step[1]));
          case "finished":
            return wait.finished(step[1]);
          case "consumed":
            return wait.consumed(step[1]);
          case "pending":
            return wait.pending;
          case "running":
            return wait.running();
        }
      });
      expect(got).toEqual(row.expected);
    });
  }
});

describe("BackgroundWait: the wait's timeout", () => {
  it("fires with the configured timeout and the work still running then", () => {
    const timers = new ManualTimers();
    const wait = new BackgroundWait(policy, timers);
    wait.track(job("t1"));
    wait.track(job("t2"));
    const fired: unknown[] = [];
    wait.armTimeout((ms, running) => fired.push({ ms, running }));
    wait.finished("t1");
    timers.fireAll();
    expect(fired).toEqual([{ ms: 5_000, running: [job("t2")] }]);
  });

  it("arming again while it runs keeps the one timer", () => {
    const timers = new ManualTimers();
    const wait = new BackgroundWait(policy, timers);
    const fired: string[] = [];
    wait.armTimeout(() => fired.push("first"));
    wait.armTimeout(() => fired.push("second"));
    expect(timers.armed).toBe(1);
    timers.fireAll();
    expect(fired).toEqual(["first"]);
  });

  it("cleared (a wake began, the task ended): it never fires; a later wait arms afresh", () => {
    const timers = new ManualTimers();
    const wait = new BackgroundWait(policy, timers);
    const fired: string[] = [];
    wait.armTimeout(() => fired.push("first"));
    wait.clearTimeout();
    expect(timers.armed).toBe(0);
    wait.armTimeout(() => fired.push("second"));
    timers.fireAll();
    expect(fired).toEqual(["second"]);
  });
});
