import { describe, expect, it } from "vitest";
import { catchUpPlan, duePlan } from "../../../../src/triggers/schedule/catch-up.js";
import { firingsBetween, nextFiring } from "../../../../src/triggers/schedule/next-firing.js";
import { localTime, schedulePrompt } from "../../../../src/triggers/schedule/schedule-message.js";

const at = (iso: string) => new Date(iso);
const nightly = { cron: "0 3 * * *" };
const paris = { cron: "0 3 * * *", timeZone: "Europe/Paris" };

describe("nextFiring (pure)", () => {
  it("is the first scheduled time strictly after the date, in UTC by default", () => {
    expect(nextFiring(nightly, at("2026-01-01T02:59:59Z"))).toEqual(at("2026-01-01T03:00:00Z"));
    expect(nextFiring(nightly, at("2026-01-01T03:00:00Z"))).toEqual(at("2026-01-02T03:00:00Z"));
  });

  it("reads the cron in the time zone, summer time included", () => {
    expect(nextFiring(paris, at("2026-01-01T00:00:00Z"))).toEqual(at("2026-01-01T02:00:00Z"));
    expect(nextFiring(paris, at("2026-07-01T00:00:00Z"))).toEqual(at("2026-07-01T01:00:00Z"));
  });

  it("takes six fields, seconds first", () => {
    expect(nextFiring({ cron: "*/10 * * * * *" }, at("2026-01-01T00:00:01.500Z"))).toEqual(
      at("2026-01-01T00:00:10Z"),
    );
  });
});

describe("firingsBetween (pure)", () => {
  it("counts the periods in (since, now] and names the latest", () => {
    const missed = firingsBetween(nightly, at("2026-01-01T03:00:00Z"), at("2026-01-04T10:00:00Z"));
    expect(missed).toEqual({ count: 3, capped: false, latest: at("2026-01-04T03:00:00Z") });
  });

  it("includes a period exactly at now, excludes one exactly at since", () => {
    const missed = firingsBetween(nightly, at("2026-01-01T03:00:00Z"), at("2026-01-02T03:00:00Z"));
    expect(missed).toEqual({ count: 1, capped: false, latest: at("2026-01-02T03:00:00Z") });
  });

  it("finds none before the next period", () => {
    expect(firingsBetween(nightly, at("2026-01-01T03:00:00Z"), at("2026-01-02T02:00:00Z"))).toEqual(
      { count: 0, capped: false, latest: undefined },
    );
  });

  it("stops counting at the cap and still names the latest", () => {
    const perSecond = { cron: "* * * * * *" };
    const missed = firingsBetween(
      perSecond,
      at("2026-01-01T00:00:00Z"),
      at("2026-01-01T01:00:00Z"),
      50,
    );
    expect(missed).toEqual({ count: 50, capped: true, latest: at("2026-01-01T01:00:00Z") });
  });
});

describe("catch-up (pure)", () => {
  const missed = { count: 3, capped: false, latest: at("2026-01-04T03:00:00Z") };
  it.each([
    ["skip", { fire: undefined, skipped: 3 }],
    ["once", { fire: at("2026-01-04T03:00:00Z"), skipped: 2 }],
  ] as const)("%s", (policy, plan) => {
    expect(catchUpPlan(policy, missed)).toEqual(plan);
  });

  it("has nothing to do when nothing was missed, whatever the policy", () => {
    const none = { count: 0, capped: false, latest: undefined };
    expect(catchUpPlan("once", none)).toEqual({ fire: undefined, skipped: 0 });
    expect(duePlan(none)).toEqual({ fire: undefined, skipped: 0 });
  });

  it("a running timer fires the latest due period, and skips those it slept through", () => {
    expect(duePlan(missed)).toEqual({ fire: at("2026-01-04T03:00:00Z"), skipped: 2 });
  });
});

describe("a schedule's prompt (pure)", () => {
  const trigger = {
    kind: "schedule" as const,
    cron: "0 3 * * *",
    timeZone: "Europe/Paris",
    catchUp: "skip" as const,
    prompt:
      "Nightly {{schedule.name}} at {{schedule.time}} ({{schedule.localTime}}, {{schedule.firing}})",
    conversation: "new" as const,
    permissions: "deny" as const,
  };

  it("replaces its own variables and says no person is there", () => {
    const prompt = schedulePrompt({
      name: "deps",
      trigger,
      time: at("2026-01-04T02:00:00Z"),
      way: "catch-up",
      key: "2026-01-04T02:00:00.000Z",
    });
    expect(prompt).toContain(
      "Nightly deps at 2026-01-04T02:00:00.000Z (2026-01-04 03:00:00 Europe/Paris, catch-up)",
    );
    expect(prompt).toMatch(/^This task was started by the schedule "deps" .*not by a person/);
    expect(prompt).not.toContain("<untrusted");
  });

  it("writes local time in the ISO order with the zone's name", () => {
    expect(localTime(at("2026-07-01T01:00:00Z"), "Europe/Paris")).toBe(
      "2026-07-01 03:00:00 Europe/Paris",
    );
  });
});
