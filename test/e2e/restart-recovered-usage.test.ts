/**
 * Usage survives restart recovery: a task whose server was SIGKILLed while Claude waited on its
 * permission prompt is FAILED at the next start (`server_restarted`) with the tokens of the
 * model call that asked, read from its conversation's transcript (issue 31). The cost estimate
 * died with the process (docs/limits.md): it is 0.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { KIND } from "../../src/contract/kinds.js";
import { usageOf } from "../../src/contract/usage.js";
import {
  a2aClient,
  afterTool,
  idsOf,
  killSandboxProcesses,
  lastStatus,
  serverProcess,
  streamMessage,
  writes,
} from "../support/harness/index.js";

describe("restart recovery: the failed task's usage", () => {
  it("SIGKILL while a permission is asked: after a restart the FAILED task carries the asking call's tokens", async () => {
    const p = await serverProcess({ deferStart: true });
    const outside = join(p.bench.sandbox.root, "outside.txt");
    p.bench.model.setRules([
      writes("Save the report", outside, "x", "write-outside"),
      afterTool(true, "Not saved.", "after"),
    ]);
    const first = await p.spawn();
    const client = await a2aClient(first.url);
    const events = await streamMessage(client, "Save the report");
    expect(lastStatus(events).kind).toBe("permission_request");
    const { taskId } = idsOf(events);

    first.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await killSandboxProcesses(p.bench.sandbox.configDir);

    const second = await p.spawn();
    const failed = await (
      await a2aClient(second.url)
    ).getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status?.message?.metadata).toEqual({ kind: KIND.serverRestarted });
    const usage = usageOf(failed.metadata);
    expect(usage).toMatchObject({ runs: 1, costUsd: 0 });
    // The asking call at least; the runtime the dead server left may have gone on (its
    // permission answered by the broken pipe) and called again before it was stopped: counted too.
    expect(usage?.modelTurns).toBeGreaterThanOrEqual(1);
    expect(usage?.inputTokens).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeGreaterThan(0);
    expect(Object.keys(usage?.models ?? {})).toHaveLength(1);
  }, 180_000);
});
