import { pino } from "pino";
import { describe, expect, it } from "vitest";
import {
  afterCapResume,
  CapThrash,
  NO_THRASH,
  type ThrashState,
} from "../../../src/sessions/cap-thrash.js";
import { key } from "./support/pool.js";

const POLICY = { resumes: 3, windowMs: 60_000 };

/** The warn decisions of cap-caused resumes at these times (ms). */
function warnings(times: readonly number[]): boolean[] {
  let state: ThrashState = NO_THRASH;
  return times.map((t) => {
    const next = afterCapResume(state, t, POLICY);
    state = next.state;
    return next.warn;
  });
}

describe("afterCapResume: when thrash under sessions.maxLive is told", () => {
  it("warns on the resume that makes more than N in the window, not before", () => {
    expect(warnings([0, 1, 2])).toEqual([false, false, false]);
    expect(warnings([0, 1, 2, 3])).toEqual([false, false, false, true]);
  });

  it("warns at most once per window while it goes on", () => {
    const everySecond = Array.from({ length: 150 }, (_, i) => i * 1000);
    const at = everySecond.filter((_, i) => warnings(everySecond)[i]);
    expect(at).toEqual([3_000, 63_000, 123_000]);
  });

  it("forgets resumes older than the window: a few an hour never warn", () => {
    const hourly = Array.from({ length: 10 }, (_, i) => i * 3_600_000);
    expect(warnings(hourly).some(Boolean)).toBe(false);
    expect(warnings([0, 1, 2, 60_000, 60_001, 60_002]).some(Boolean)).toBe(false);
  });
});

describe("CapThrash", () => {
  function watch() {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: "warn" },
      { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) },
    );
    let now = 0;
    const thrash = new CapThrash({
      maxLive: 1,
      clock: { now: () => now },
      logger,
      policy: POLICY,
    });
    return { thrash, lines, tick: (ms: number) => (now += ms) };
  }

  it("counts a resume only for a conversation the cap closed, once per closing", () => {
    const { thrash } = watch();
    thrash.created(key("a"), true); // never closed by the cap: a restart's resume
    thrash.evicted(key("a"));
    thrash.created(key("b"), false);
    thrash.created(key("a"), true);
    thrash.created(key("a"), true);
    expect(thrash.counts).toEqual({ evictions: 1, resumes: 1 });
    thrash.evicted(key("b"));
    thrash.created(key("b"), false); // its map entry was gone: a fresh session, no resume
    expect(thrash.counts).toEqual({ evictions: 2, resumes: 1 });
  });

  it("logs one warn line for two conversations alternating under a cap of one", () => {
    const { thrash, lines, tick } = watch();
    for (let turn = 0; turn < 20; turn++) {
      const [coming, going] = turn % 2 === 0 ? ["a", "b"] : ["b", "a"];
      thrash.evicted(key(going));
      thrash.created(key(coming), true);
      tick(1000);
    }
    expect(thrash.counts.resumes).toBe(19);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, resumes: 4, windowSeconds: 60, maxLive: 1 });
    expect(String(lines[0]?.msg)).toContain("sessions.maxLive");
  });
});
