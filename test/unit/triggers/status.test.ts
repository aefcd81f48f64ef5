import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { manualEvent } from "../../../src/triggers/manual.js";
import type { FiringRow } from "../../../src/store/firing-rows.js";
import {
  firingOfRow,
  firingOfTask,
  scheduleAnswer,
  triggerStatus,
  webhookPath,
} from "../../../src/triggers/status.js";
import { renderPrompt } from "../../../src/triggers/template.js";

const config = resolveConfig(
  {
    triggers: {
      fix: {
        kind: "webhook",
        verify: "github",
        secretEnv: "S",
        prompt: "Fix {{issue.title}} ({{event}}, {{delivery}})",
      },
      deps: { kind: "schedule", cron: "0 3 * * *", prompt: "Update the dependencies." },
      paris: {
        kind: "schedule",
        cron: "0 3 * * *",
        timeZone: "Europe/Paris",
        prompt: "Update the dependencies.",
      },
    },
  },
  { file: "test.json", startDir: "/work" },
);
const { fix, deps, paris } = config.triggers;
if (fix === undefined || deps === undefined || paris === undefined) throw new Error("no trigger");

describe("triggerStatus", () => {
  it("a webhook: its path from the server's root, no next firing", () => {
    expect(
      triggerStatus({
        name: "fix",
        trigger: fix,
        workspace: undefined,
        lastFiring: undefined,
        nextFiring: undefined,
      }),
    ).toEqual({ name: "fix", kind: "webhook", path: "/hooks/fix" });
    expect(webhookPath("web", "fix")).toBe("/agents/web/hooks/fix");
  });

  it("carries the workspace, the last firing and an injected next firing", () => {
    const last = { at: "2026-12-07T12:00:00.000Z", outcome: "budget" as const };
    expect(
      triggerStatus({
        name: "fix",
        trigger: fix,
        workspace: "web",
        lastFiring: last,
        nextFiring: new Date("2026-12-08T00:00:00Z"),
      }),
    ).toEqual({
      name: "fix",
      workspace: "web",
      kind: "webhook",
      path: "/agents/web/hooks/fix",
      lastFiring: last,
      nextFiring: "2026-12-08T00:00:00.000Z",
    });
  });

  it("the newest task as the last firing: started, at its status time", () => {
    const status = {
      state: TaskState.TASK_STATE_COMPLETED,
      message: undefined,
      timestamp: "2026-12-07T12:34:56.000Z",
    };
    expect(firingOfTask({ id: "t1", status })).toEqual({
      at: "2026-12-07T12:34:56.000Z",
      outcome: "started",
      taskId: "t1",
    });
  });
});

describe("a manual firing's event", () => {
  it("is a new delivery each time; {{event}} is manual, payload variables (none)", () => {
    const a = manualEvent();
    expect(a.deliveryId).toMatch(/^manual-[0-9a-f-]{36}$/);
    expect(manualEvent().deliveryId).not.toBe(a.deliveryId);
    expect(a.subject).toBeUndefined();
    const prompt = renderPrompt(fix.prompt, {
      trigger: "fix",
      event: manualEvent("x"),
      payload: {},
      maxFieldChars: 100,
      attached: "as a file",
    });
    expect(prompt).toContain(
      'Fix (none) (<untrusted field="event">manual</untrusted>, <untrusted field="delivery">manual-x</untrusted>)',
    );
  });
});

describe("a schedule in the listing", () => {
  it("its cron and time zone (UTC when unset), and its next firing", () => {
    const next = new Date("2026-12-08T02:00:00Z");
    expect(
      triggerStatus({
        name: "paris",
        trigger: paris,
        workspace: undefined,
        lastFiring: undefined,
        nextFiring: next,
      }),
    ).toEqual({
      name: "paris",
      kind: "schedule",
      cron: "0 3 * * *",
      timeZone: "Europe/Paris",
      nextFiring: "2026-12-08T02:00:00.000Z",
    });
    const utc = triggerStatus({
      name: "deps",
      trigger: deps,
      workspace: "web",
      lastFiring: undefined,
      nextFiring: undefined,
    });
    expect(utc).toMatchObject({ kind: "schedule", timeZone: "UTC", workspace: "web" });
    expect(utc).not.toHaveProperty("path");
  });

  const row = (o: Partial<FiringRow>): FiringRow => ({
    trigger: "deps",
    key: "2026-12-07T02:00:00.000Z",
    kind: "scheduled",
    scheduledAt: new Date("2026-12-07T02:00:00Z"),
    instance: "",
    outcome: "started",
    ...o,
  });

  it.each([
    ["started", { outcome: "started", taskId: "t1" }, { outcome: "started", taskId: "t1" }],
    ["budget", { outcome: "budget" }, { outcome: "budget" }],
    [
      "claimed (a send under way): started, no task yet",
      { outcome: "claimed" },
      { outcome: "started" },
    ],
    ["skipped: not a firing", { outcome: "skipped" }, undefined],
    ["baseline: not a firing", { outcome: "baseline", kind: "baseline" }, undefined],
  ] as const)("its newest row as the last firing: %s", (_, r, expected) => {
    const got = firingOfRow(row(r));
    if (expected === undefined) expect(got).toBeUndefined();
    else expect(got).toEqual({ at: "2026-12-07T02:00:00.000Z", ...expected });
  });

  it("an operator's firing answered as a delivery's: 202 started, 429 budget, 404 (none) unknown", () => {
    expect(
      scheduleAnswer("deps", { outcome: "started", key: "manual:a", taskId: "t", contextId: "c" }),
    ).toEqual({
      status: 202,
      body: {
        outcome: "started",
        trigger: "deps",
        eventId: "manual:a",
        taskId: "t",
        contextId: "c",
      },
    });
    expect(scheduleAnswer("deps", { outcome: "budget", key: "manual:b", reason: "spent" })).toEqual(
      {
        status: 429,
        body: { outcome: "budget", trigger: "deps", eventId: "manual:b", reason: "spent" },
      },
    );
    expect(
      scheduleAnswer("deps", { outcome: "refused", key: "manual:c", reason: "r" })?.status,
    ).toBe(503);
    expect(scheduleAnswer("deps", { outcome: "not-found", reason: "No schedule" })).toBeUndefined();
  });
});
