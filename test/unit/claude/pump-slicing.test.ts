/**
 * A burst of messages the SDK already holds resolves `next()` as microtasks: the pump must still
 * let the event loop run while it drains one (other requests, other contexts, flush timers).
 */
import { describe, expect, it } from "vitest";
import { AsyncQueue } from "../../../src/claude/async-queue.js";
import { SessionCore } from "../../../src/claude/core.js";
import { QueryPump } from "../../../src/claude/pump.js";
import { sequentialIds, silentLogger } from "./support/helpers.js";
import { sdk } from "./support/sdk-messages.js";
import { ScriptedQuery } from "./support/scripted-query.js";

describe("QueryPump slicing", () => {
  it("lets a macrotask run in the middle of a long burst of buffered deltas", async () => {
    const core = new SessionCore(silentLogger, sequentialIds("run"));
    const query = new ScriptedQuery({ prompt: new AsyncQueue(), options: {} });
    void new QueryPump(query, core).run();
    const deltas = 20_000;
    const frames = [
      sdk.messageStart("long"),
      ...Array.from({ length: deltas }, (_, i) =>
        sdk.textDelta(0, String.fromCharCode(97 + (i % 26))),
      ),
      sdk.autonomousResult("done"),
    ];
    // Every frame is buffered before the pump reads any: only microtasks stand between them.
    query.emit(...frames);
    let pulledWhenTimerRan: number | undefined;
    setImmediate(() => (pulledWhenTimerRan = query.nextCalls));
    await query.drained();
    expect(pulledWhenTimerRan).toBeDefined();
    expect(pulledWhenTimerRan).toBeLessThan(frames.length);
    // The burst was handled whole and in order all the same.
    expect(core.runs.all().map((r) => r.state)).toEqual(["completed"]);
    expect(core.timeline.snapshot()[0]?.text).toHaveLength(deltas);
  });
});
