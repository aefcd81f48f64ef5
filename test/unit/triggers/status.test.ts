import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { manualEvent } from "../../../src/triggers/manual.js";
import { firingOfTask, triggerStatus, webhookPath } from "../../../src/triggers/status.js";
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
    },
  },
  { file: "test.json", startDir: "/work" },
);
const fix = config.triggers.fix;
if (fix === undefined) throw new Error("no trigger");

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
