import { describe, expect, it, vi } from "vitest";
import { AsyncQueue } from "../../../src/claude/async-queue.js";
import { SessionCore } from "../../../src/claude/core.js";
import type { SessionEvent } from "../../../src/claude/events.js";
import { QueryPump } from "../../../src/claude/pump.js";
import { sequentialIds, silentLogger } from "./support/helpers.js";
import { autonomousTurn, sdk } from "./support/sdk-messages.js";
import { ScriptedQuery } from "./support/scripted-query.js";

function pumpRig() {
  const core = new SessionCore(silentLogger, sequentialIds("run"));
  const events: SessionEvent[] = [];
  core.emitter.subscribe((e) => events.push(e));
  const query = new ScriptedQuery({ prompt: new AsyncQueue(), options: {} });
  const pump = new QueryPump(query, core);
  const done = pump.run();
  return { core, query, pump, done, events };
}

describe("QueryPump", () => {
  it("is the single consumer of next(), one frame at a time", async () => {
    const { core, query } = pumpRig();
    const frames = Array.from({ length: 5 }, (_, i) => autonomousTurn(`m${i}`, `turn ${i}`)).flat();
    await query.feed(...frames);
    // ScriptedQuery throws on a concurrent next(); every frame was pulled exactly once.
    expect(query.nextCalls).toBe(frames.length + 1);
    expect(core.runs.all().map((r) => r.state)).toEqual(Array(5).fill("completed"));
    expect(core.timeline.snapshot()).toHaveLength(5);
  });

  it("survives a failure while handling one run's frame: that run fails, the next one works", async () => {
    const { core, query } = pumpRig();
    const apply = core.timeline.apply.bind(core.timeline);
    vi.spyOn(core.timeline, "apply").mockImplementation((event, runId) => {
      if (event.kind === "assistant" && event.messageId === "boom") throw new Error("kaboom");
      apply(event, runId);
    });
    await query.feed(sdk.messageStart("boom"), sdk.text("boom", "x"), sdk.autonomousResult("x"));
    const [first] = core.runs.all();
    expect(first?.outcome).toEqual({ state: "error", reason: "internal error: kaboom" });
    await query.feed(...autonomousTurn("m2", "still alive"));
    expect(core.runs.all()[1]?.outcome).toEqual({ state: "completed", text: "still alive" });
    expect(core.currentStatus).toBe("idle");
  });

  it("fails active runs when the stream ends without their result, and never throws", async () => {
    const { core, query, done, events } = pumpRig();
    await query.feed(sdk.messageStart("m1"), sdk.textDelta(0, "half"));
    expect(core.currentStatus).toBe("running");
    query.fail(new Error("child exited with code 137"));
    await expect(done).resolves.toBeUndefined();
    expect(core.runs.all()[0]?.outcome).toEqual({
      state: "error",
      reason: "Claude Code process ended before the run finished: child exited with code 137",
    });
    expect(core.turn.state).toBe("idle");
    expect(core.currentStatus).toBe("error");
    expect(events.at(-1)).toMatchObject({ type: "closed" });
  });

  it("feeds the timeline even for frames that route to no run", async () => {
    const { core, query } = pumpRig();
    // An orphan result and an ended run's late frame change no run but the timeline keeps text.
    await query.feed(...autonomousTurn("m1", "done"));
    await query.feed(sdk.text("m1", " and more"), sdk.autonomousResult("stray"));
    expect(core.runs.all()).toHaveLength(1);
    expect(core.timeline.get("m1")?.text).toBe("done and more");
  });
});
