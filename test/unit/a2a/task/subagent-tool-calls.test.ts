/**
 * A subagent's tool calls on the wire (docs/protocol.md "Tool calls"): the runtime reports them
 * with `parent_tool_use_id`, the id of the `Task`/`Agent` call they run in; their `tool_use` and
 * `tool_result` statuses carry it as `parentToolUseId`, so a client can nest them under that
 * call. The main thread's calls carry none.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { KIND } from "../../../../src/contract/kinds.js";
import { TOOL_IO_KEYS } from "../../../../src/contract/tool-io.js";
import { sdk } from "../../claude/support/sdk-messages.js";
import { isState, type StreamReader, firstSend } from "../support/agent.js";

/** Each tool status of the stream: kind, tool, id and parent (undefined when unset). */
function toolStatuses(reader: StreamReader) {
  return reader.events.flatMap((e) => {
    const p = e.payload;
    if (p?.$case !== "statusUpdate") return [];
    const meta: Record<string, unknown> = p.value.status?.message?.metadata ?? {};
    if (meta.kind !== KIND.toolUse && meta.kind !== KIND.toolResult) return [];
    return [
      {
        kind: meta.kind,
        toolName: meta.toolName,
        toolUseId: meta.toolUseId,
        parent: meta[TOOL_IO_KEYS.parent],
        output: meta[TOOL_IO_KEYS.output],
      },
    ];
  });
}

describe("a subagent's tool calls", () => {
  it("carry parentToolUseId, the id of the Agent call they run in; the main thread's carry none", async () => {
    const [h, run, stamp] = await firstSend("count the files with a helper");
    await h.fake.query.feed(
      sdk.init(),
      sdk.toolUse(
        "m1",
        "tu-agent",
        "Agent",
        { prompt: "Count the files", description: "Count" },
        {
          stamp,
        },
      ),
      sdk.toolUse("ms1", "tu-ls", "Bash", { command: "ls" }, { parent: "tu-agent" }),
      sdk.toolResult("tu-ls", "a.txt\nb.txt\n", { parent: "tu-agent" }),
      sdk.toolUse("ms2", "tu-read", "Read", { file_path: "a.txt" }, { parent: "tu-agent" }),
      sdk.toolResult("tu-read", "alpha", { parent: "tu-agent" }),
      sdk.toolResult("tu-agent", "There are 2 files."),
      sdk.result({ text: "The helper counted 2 files.", stamp }),
    );
    await run.until(isState(TaskState.TASK_STATE_COMPLETED));
    expect(toolStatuses(run)).toEqual([
      {
        kind: "tool_use",
        toolName: "Agent",
        toolUseId: "tu-agent",
        parent: undefined,
        output: undefined,
      },
      {
        kind: "tool_use",
        toolName: "Bash",
        toolUseId: "tu-ls",
        parent: "tu-agent",
        output: undefined,
      },
      {
        kind: "tool_result",
        toolName: "Bash",
        toolUseId: "tu-ls",
        parent: "tu-agent",
        output: "a.txt\nb.txt\n",
      },
      {
        kind: "tool_use",
        toolName: "Read",
        toolUseId: "tu-read",
        parent: "tu-agent",
        output: undefined,
      },
      {
        kind: "tool_result",
        toolName: "Read",
        toolUseId: "tu-read",
        parent: "tu-agent",
        output: "alpha",
      },
      {
        kind: "tool_result",
        toolName: "Agent",
        toolUseId: "tu-agent",
        parent: undefined,
        output: "There are 2 files.",
      },
    ]);
    // The key is absent (not undefined) on the main thread's calls: a client tests for it.
    const agentUse = run.events.find(
      (e) =>
        e.payload?.$case === "statusUpdate" &&
        e.payload.value.status?.message?.metadata?.toolUseId === "tu-agent",
    );
    const meta =
      agentUse?.payload?.$case === "statusUpdate"
        ? agentUse.payload.value.status?.message?.metadata
        : {};
    expect(Object.keys(meta ?? {})).not.toContain(TOOL_IO_KEYS.parent);
  });
});
