import { describe, expect, it } from "vitest";
import { fireReport, triggersTable } from "../../../src/client/triggers-view.js";

describe("triggersTable", () => {
  it("one line per trigger: where or when it fires, next and last firing", () => {
    const text = triggersTable({
      triggers: [
        {
          name: "fix",
          kind: "webhook",
          path: "/hooks/fix",
          lastFiring: { at: "2026-12-07T12:00:00.000Z", outcome: "budget" },
        },
        {
          name: "nightly",
          kind: "schedule",
          cron: "0 3 * * *",
          timeZone: "Europe/Paris",
          nextFiring: "2026-12-08T02:00:00.000Z",
          lastFiring: { at: "2026-12-07T02:00:00.000Z", outcome: "started", taskId: "t1" },
        },
      ],
    });
    expect(text).toBe(
      [
        "NAME     KIND      FIRES                   NEXT                  LAST",
        "fix      webhook   /hooks/fix              -                     2026-12-07 12:00:00Z budget",
        "nightly  schedule  0 3 * * * Europe/Paris  2026-12-08 02:00:00Z  2026-12-07 02:00:00Z started t1",
        "",
      ].join("\n"),
    );
    expect(triggersTable({ triggers: [] })).toBe("No triggers.\n");
  });
});

describe("fireReport", () => {
  const follow = (id: string) => `claude-a2a task ${id}`;
  it("a started task and how to follow it; a refusal and its reason", () => {
    expect(fireReport({ outcome: "started", trigger: "fix", taskId: "t9" }, follow)).toBe(
      "Started task t9\nFollow it: claude-a2a task t9\n",
    );
    expect(
      fireReport({ outcome: "budget", trigger: "fix", reason: "daily budget reached" }, follow),
    ).toBe("budget: daily budget reached\n");
  });
});
