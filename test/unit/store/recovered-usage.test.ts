/**
 * Restart recovery records what a failed task's runs used: the model calls its conversation's
 * transcript holds since the task's first kept event (`server_restarted`, issue 31).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskState, type Task } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { transcriptUsageSince } from "../../../src/claude/index.js";
import { transcriptRecoveredUsage } from "../../../src/app/recovered-usage.js";
import { EMPTY_USAGE, usageOf } from "../../../src/contract/usage.js";
import { CallerUser } from "../../../src/identity/caller.js";
import { conversationKey, ownerOf } from "../../../src/identity/conversation.js";
import type { RecoveredUsage } from "../../../src/store/recovery.js";
import { openLocalSessionMap } from "../../../src/store/open-session-map.js";
import { SqlReplayBackend } from "../../../src/store/sql-replay-backend.js";
import { openDatabase } from "../../../src/store/database.js";
import { openTaskStores } from "../../../src/store/task-stores.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const logger = pino({ level: "silent" });
const T0 = Date.parse("2026-01-01T10:00:00.000Z");
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const assistant = (ms: number, id: string, usage: Record<string, number>, model = "m-1") => ({
  type: "assistant",
  timestamp: iso(ms),
  message: { id, model, role: "assistant", content: [{ type: "text", text: "x" }], usage },
});
const prompt = (ms: number, text: string) => ({
  type: "user",
  timestamp: iso(ms),
  message: { role: "user", content: [{ type: "text", text }] },
});
const toolResult = (ms: number) => ({
  type: "user",
  timestamp: iso(ms),
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
});

describe("transcriptUsageSince", () => {
  const entries = [
    prompt(0, "earlier task"),
    assistant(1, "msg-old", { input_tokens: 1000, output_tokens: 1000 }),
    prompt(10, "this task"),
    // One message written as two entries (one per content block): counted once, last figures.
    assistant(11, "msg-a", { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 5 }),
    assistant(12, "msg-a", { input_tokens: 10, output_tokens: 7, cache_read_input_tokens: 5 }),
    toolResult(13),
    // What the runtime writes when its input closes mid-tool (the server died): not a prompt.
    prompt(13, "[Request interrupted by user for tool use]"),
    assistant(14, "msg-b", { input_tokens: 20, output_tokens: 3, cache_creation_input_tokens: 2 }),
    assistant(15, "msg-c", { input_tokens: 4, output_tokens: 4 }, "m-2"),
    { ...assistant(16, "msg-x", { input_tokens: 99 }, "<synthetic>") },
    { type: "summary", timestamp: iso(17) },
    "not an entry",
  ];

  it.each([
    {
      name: "since the task's first event: its calls, each message once, by model",
      since: 10,
      want: {
        inputTokens: 34,
        outputTokens: 14,
        cacheReadTokens: 5,
        cacheCreationTokens: 2,
        modelCalls: 3,
        prompts: 1,
        models: {
          "m-1": {
            inputTokens: 30,
            outputTokens: 10,
            cacheReadTokens: 5,
            cacheCreationTokens: 2,
            costUsd: 0,
          },
          "m-2": {
            inputTokens: 4,
            outputTokens: 4,
            cacheReadTokens: 0,
            cacheCreationTokens: 0,
            costUsd: 0,
          },
        },
      },
    },
    {
      name: "from the start: the earlier task's call and prompt too",
      since: 0,
      want: { inputTokens: 1034, outputTokens: 1014, modelCalls: 4, prompts: 2 },
    },
    { name: "after the last call: nothing", since: 16, want: undefined },
  ])("$name", ({ since, want }) => {
    const got = transcriptUsageSince(entries, T0 + since);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatchObject(want);
  });
});

describe("restart recovery records the usage of the tasks it fails", () => {
  const dir = useTempDir("a2a-recovered-usage-");

  const alice = new ServerCallContext({ user: new CallerUser({ kind: "login", login: "alice" }) });
  const store = { type: "sqlite", path: "tasks.db", retainDays: 30 } as const;
  const working = (id: string, contextId: string): Task => ({
    id,
    contextId,
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: iso(20) },
    history: [],
    artifacts: [],
    metadata: { kept: true },
  });

  /** A first server's tasks and kept events, then a second open with `usage`. */
  async function restartWith(usage: RecoveredUsage) {
    const first = await openTaskStores({ store, cwd: dir(), logger });
    await first.taskStore.save(working("t-kept", "ctx-1"), alice);
    await first.taskStore.save(working("t-unkept", "ctx-2"), alice);
    await first.close();
    const database = await openDatabase({ type: "sqlite", file: join(dir(), "tasks.db") });
    const event = { taskId: "t-kept", ends: false, json: "{}" };
    await new SqlReplayBackend(database.db).write(
      [
        { ...event, n: 2, at: T0 + 12 },
        { ...event, n: 1, at: T0 + 10 },
      ],
      [],
    );
    await database.db.destroy();
    const second = await openTaskStores({ store, cwd: dir(), logger, recoveredUsage: usage });
    try {
      return {
        recovered: [...second.recovered].sort(),
        kept: await second.taskStore.load("t-kept", alice),
        unkept: await second.taskStore.load("t-unkept", alice),
      };
    } finally {
      await second.close();
    }
  }

  it("asks from the task's first kept event, and merges it into the failed task's metadata", async () => {
    const asked: [string, string, number][] = [];
    const got = await restartWith((scoped, startedAt) => {
      asked.push([scoped.task.id, scoped.owner, startedAt]);
      return Promise.resolve({ ...EMPTY_USAGE, inputTokens: 30, outputTokens: 9, runs: 1 });
    });
    expect(got.recovered).toEqual(["t-kept", "t-unkept"]);
    // Only the task with a kept event is asked about, from its first one.
    expect(asked).toEqual([["t-kept", ownerOf(alice), T0 + 10]]);
    expect(got.kept?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(got.kept?.metadata).toMatchObject({ kept: true });
    expect(usageOf(got.kept?.metadata)).toMatchObject({
      inputTokens: 30,
      outputTokens: 9,
      runs: 1,
    });
    expect(got.unkept?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(usageOf(got.unkept?.metadata)).toBeUndefined();
  });

  it("a usage that cannot be read fails the task all the same, without usage", async () => {
    const got = await restartWith(() => Promise.reject(new Error("unreadable")));
    expect(got.kept?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(usageOf(got.kept?.metadata)).toBeUndefined();
  });

  it("reads the mapped session's transcript in the child's config dir()", async () => {
    const configDir = join(dir(), "config");
    const project = join(configDir, "projects", "-some-workspace");
    await mkdir(project, { recursive: true });
    const lines = [
      prompt(0, "before"),
      assistant(1, "m-old", { input_tokens: 500, output_tokens: 500 }),
      prompt(10, "this task"),
      assistant(11, "m-new", { input_tokens: 12, output_tokens: 6 }),
    ];
    await writeFile(join(project, "sess-1.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n"));
    const sessionMap = await openLocalSessionMap({ cwd: dir(), logger });
    await sessionMap.set(conversationKey({ owner: ownerOf(alice), contextId: "ctx-1" }), "sess-1");
    const read = transcriptRecoveredUsage(sessionMap, { CLAUDE_CONFIG_DIR: configDir });
    const got = await restartWith(read);
    expect(usageOf(got.kept?.metadata)).toMatchObject({
      costUsd: 0,
      inputTokens: 12,
      outputTokens: 6,
      modelTurns: 1,
      runs: 1,
    });
    // ctx-2 has no mapped session: nothing to read.
    expect(usageOf(got.unkept?.metadata)).toBeUndefined();
  });
});
