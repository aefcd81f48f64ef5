import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { BackgroundClock } from "../../../src/sessions/background-clock.js";
import { backgroundLimitReason } from "../../../src/sessions/background-limit.js";
import { key, ManualTimers } from "./support/pool.js";

const LIMIT = 1_000;

/** A session's activity, changed step by step; each change is told to the clock (`update`). */
type Step = "job" | "no-job" | "message" | "message-ends" | "wait-limit" | "leave";

function run(steps: readonly Step[], limitMs = LIMIT) {
  const timers = new ManualTimers();
  const session = {
    jobs: [] as { taskId: string }[],
    foregroundActive: false,
    stops: [] as string[],
    backgroundTasks() {
      return this.jobs;
    },
    stopBackgroundTask(taskId: string, reason?: string) {
      this.stops.push(`${taskId}: ${reason ?? ""}`);
      return Promise.resolve();
    },
  };
  let expiries = 0;
  const clock = new BackgroundClock({
    key: key("ctx"),
    session,
    limitMs,
    timers,
    logger: pino({ level: "silent" }),
    onExpired: () => expiries++,
  });
  for (const step of steps) {
    switch (step) {
      case "job":
        session.jobs = [{ taskId: "dev-1" }];
        break;
      case "no-job":
        session.jobs = [];
        break;
      case "message":
        session.foregroundActive = true;
        break;
      case "message-ends":
        session.foregroundActive = false;
        break;
      case "wait-limit":
        timers.advance(limitMs);
        continue;
      case "leave":
        clock.stop();
        continue;
    }
    clock.update();
  }
  return { armed: clock.armed, expired: clock.expired, stops: session.stops, expiries };
}

const stopped = [`dev-1: ${backgroundLimitReason(LIMIT)}`];

describe("BackgroundClock", () => {
  it.each([
    ["nothing running", [], { armed: false, expired: false, stops: [], expiries: 0 }],
    ["a job alone arms it", ["job"], { armed: true, expired: false, stops: [], expiries: 0 }],
    [
      "a job alone for the limit is stopped, and stops counting as busy",
      ["job", "wait-limit"],
      { armed: false, expired: true, stops: stopped, expiries: 1 },
    ],
    [
      "a client's message stops the clock",
      ["job", "message", "wait-limit"],
      { armed: false, expired: false, stops: [], expiries: 0 },
    ],
    [
      "after the message it starts again from zero",
      ["job", "message", "message-ends"],
      { armed: true, expired: false, stops: [], expiries: 0 },
    ],
    [
      "a job that ends by itself disarms it",
      ["job", "no-job", "wait-limit"],
      { armed: false, expired: false, stops: [], expiries: 0 },
    ],
    [
      "new work after a stop counts as busy again",
      ["job", "wait-limit", "message"],
      { armed: false, expired: false, stops: stopped, expiries: 1 },
    ],
    [
      "a session that left the pool is never stopped",
      ["job", "leave", "wait-limit"],
      { armed: false, expired: false, stops: [], expiries: 0 },
    ],
  ] as [string, Step[], ReturnType<typeof run>][])("%s", (_name, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });

  it("never runs with a limit of 0", () => {
    expect(run(["job", "wait-limit"], 0)).toEqual({
      armed: false,
      expired: false,
      stops: [],
      expiries: 0,
    });
  });
});
