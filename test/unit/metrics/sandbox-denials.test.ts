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

describe("claude_a2a_sandbox_denials_total", () => {
  it("shows the commands' series at 0 before any denial", async () => {
    expect(await metrics().render()).toContain(
      '\nclaude_a2a_sandbox_denials_total{kind="command"} 0\n',
    );
  });

  it("counts the server's refused files by kind beside it", async () => {
    const m = metrics();
    m.countFileRefusal("link");
    m.countFileRefusal("link");
    m.countFileRefusal("not-regular");
    const text = await m.render();
    expect(text).toContain('claude_a2a_sandbox_denials_total{kind="file-link"} 2');
    expect(text).toContain('claude_a2a_sandbox_denials_total{kind="file-not-regular"} 1');
    expect(text).toContain('\nclaude_a2a_sandbox_denials_total{kind="command"} 0\n');
  });
});
