/** /healthz and /metrics after a task, with the real runtime and the default SQLite store. */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { a2a, says } from "../support/harness/index.js";

describe("health and metrics", () => {
  it("/healthz and /metrics report the store, the live session and the finished task", async () => {
    const h = await a2a({
      rules: [says("Say hello", "Hello!")],
    });
    const task = await h.send("Say hello");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const health = await fetch(`${h.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      store: { type: "sqlite", reachable: true },
      sessions: { live: 1, maxLive: 8 },
      // Nothing was mapped at startup: the session map's sweep had nothing to check.
      sessionSweep: { state: "done", checked: 0, of: 0, dropped: 0 },
    });

    const res = await fetch(`${h.server.url}/metrics`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('claude_a2a_tasks{state="completed"} 1');
    expect(body).toContain("claude_a2a_live_sessions 1");
    expect(body).toContain("claude_a2a_background_tasks 0");
    expect(body).toContain('claude_a2a_runs_total{origin="foreground",outcome="completed"} 1');
    expect(body).toContain('claude_a2a_time_to_first_event_seconds_count{origin="foreground"} 1');
    expect(body).toContain(
      'claude_a2a_turn_duration_seconds_count{origin="foreground",outcome="completed"} 1',
    );
    expect(body).toContain("claude_a2a_model_api_retries_total 0");
  });
});
