import { describe, expect, it } from "vitest";
import { ServerMetrics } from "../../../src/metrics/metrics.js";

const metrics = () =>
  new ServerMetrics({
    tasksByState: () => Promise.resolve({}),
    liveSessions: () => 0,
    backgroundTasks: () => 0,
    queuedTasks: () => 0,
    callerLabel: () => "other",
  });

describe("claude_a2a_push_notifications_dropped_total", () => {
  it("shows every reason at 0 before any drop, and counts each drop by its reason", async () => {
    const m = metrics();
    expect(await m.render()).toContain(
      '\nclaude_a2a_push_notifications_dropped_total{reason="rejected"} 0\n',
    );
    m.countPushDrop("rejected");
    m.countPushDrop("rejected");
    m.countPushDrop("exhausted");
    const text = await m.render();
    expect(text).toContain('claude_a2a_push_notifications_dropped_total{reason="rejected"} 2');
    expect(text).toContain('claude_a2a_push_notifications_dropped_total{reason="exhausted"} 1');
    expect(text).toContain('claude_a2a_push_notifications_dropped_total{reason="refused"} 0');
  });
});
