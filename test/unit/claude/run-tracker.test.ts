import { describe, expect, it } from "vitest";
import {
  deriveStatus,
  isLegalRunTransition,
  outcomeFromResult,
  RunTracker,
  type RunLifecycle,
} from "../../../src/claude/run-tracker.js";
import { sequentialIds, silentLogger } from "./support/helpers.js";

const tracker = () => {
  const seen: string[] = [];
  const runs = new RunTracker(
    silentLogger,
    (run, from) => seen.push(`${from}->${run.state}`),
    sequentialIds("run"),
  );
  return { runs, seen };
};

describe("RunTracker", () => {
  it("walks a successful run through every lifecycle stage", () => {
    const { runs, seen } = tracker();
    const run = runs.create("foreground", "queued");
    runs.transition(run.id, "awaiting_response", "sent");
    runs.transition(run.id, "streaming", "first frame");
    runs.finish(run.id, { state: "completed", text: "ok" }, "result");
    expect(seen).toEqual([
      "queued->awaiting_response",
      "awaiting_response->streaming",
      "streaming->finalizing",
      "finalizing->completed",
    ]);
    expect(run.outcome).toEqual({ state: "completed", text: "ok" });
  });

  it("ends interrupted and errored runs, and never moves a terminal run", () => {
    const { runs } = tracker();
    const a = runs.create("autonomous", "awaiting_response");
    runs.transition(a.id, "streaming", "frame");
    runs.transition(a.id, "finalizing", "interrupt");
    expect(runs.finish(a.id, { state: "interrupted", text: "", reason: "x" }, "result").ok).toBe(
      true,
    );
    expect(runs.transition(a.id, "streaming", "late").ok).toBe(false);
    expect(a.state).toBe("interrupted");
    const b = runs.create("foreground", "queued");
    runs.transition(b.id, "awaiting_response", "sent");
    runs.finish(b.id, { state: "error", reason: "boom" }, "result");
    expect(b.state).toBe("error");
    expect(runs.finish(b.id, { state: "completed", text: "" }, "again").ok).toBe(false);
  });

  it("rejects illegal transitions", () => {
    const { runs } = tracker();
    const run = runs.create("foreground", "queued");
    expect(runs.transition(run.id, "streaming", "skip").ok).toBe(false);
    expect(runs.transition(run.id, "completed", "skip").ok).toBe(false);
    expect(run.state).toBe("queued");
    const states: RunLifecycle[] = ["completed", "interrupted", "error"];
    for (const s of states) expect(isLegalRunTransition(s, "streaming")).toBe(false);
  });

  it("derives session status from runs", () => {
    const { runs } = tracker();
    expect(deriveStatus(runs.all(), 0, false)).toBe("idle");
    const run = runs.create("foreground", "queued");
    expect(deriveStatus(runs.all(), 0, false)).toBe("running");
    expect(deriveStatus(runs.all(), 1, false)).toBe("permission");
    runs.transition(run.id, "awaiting_response", "sent");
    runs.finish(run.id, { state: "error", reason: "x" }, "result");
    expect(deriveStatus(runs.all(), 0, false)).toBe("error");
    const next = runs.create("foreground", "queued");
    expect(deriveStatus(runs.all(), 0, false)).toBe("running");
    runs.transition(next.id, "awaiting_response", "sent");
    runs.finish(next.id, { state: "completed", text: "" }, "result");
    expect(deriveStatus(runs.all(), 0, false)).toBe("idle");
    expect(deriveStatus(runs.all(), 0, true)).toBe("error");
  });

  it("maps results to outcomes", () => {
    const run = { interruptRequested: false, lastText: "partial" };
    const base = { errors: [] as string[] };
    expect(
      outcomeFromResult({ ...base, success: true, subtype: "success", text: "t" }, run),
    ).toEqual({
      state: "completed",
      text: "t",
    });
    expect(
      outcomeFromResult(
        {
          ...base,
          success: false,
          subtype: "error_during_execution",
          terminalReason: "aborted_streaming",
        },
        run,
      ),
    ).toEqual({ state: "interrupted", text: "partial", reason: "aborted_streaming" });
    expect(
      outcomeFromResult(
        {
          success: false,
          subtype: "success",
          text: "API Error: 400",
          errors: [],
          terminalReason: "api_error",
        },
        run,
      ),
    ).toEqual({ state: "error", reason: "API Error: 400" });
    expect(
      outcomeFromResult(
        { success: false, subtype: "error_during_execution", errors: [] },
        { ...run, interruptRequested: true },
      ).state,
    ).toBe("interrupted");
    // The cause comes from the run's last API-error message, else from the result's HTTP status;
    // the reason stays the runtime's text either way.
    const noLogin = {
      success: false,
      subtype: "success",
      text: "Not logged in · Please run /login",
      errors: [],
      terminalReason: "api_error",
    };
    expect(outcomeFromResult(noLogin, { ...run, failureCause: "authentication_failed" })).toEqual({
      state: "error",
      reason: "Not logged in · Please run /login",
      cause: "authentication_failed",
    });
    expect(outcomeFromResult({ ...noLogin, apiErrorStatus: 401 }, run)).toMatchObject({
      cause: "authentication_failed",
    });
    expect(outcomeFromResult({ ...noLogin, apiErrorStatus: 400 }, run)).toMatchObject({
      cause: "prompt_rejected",
    });
    expect(outcomeFromResult({ ...noLogin, apiErrorStatus: 429 }, run)).not.toHaveProperty("cause");
    expect(
      outcomeFromResult({ success: false, subtype: "error_max_turns", errors: ["max turns"] }, run),
    ).toEqual({ state: "error", reason: "max turns" });
  });
});
