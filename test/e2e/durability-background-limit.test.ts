/**
 * `sessions.maxBackgroundMs` against the REAL Claude Code runtime: a background job that never
 * ends is stopped once its session has had nothing else to do for that long; its process is gone,
 * the task waiting for it hears why (`background_stopped`), and the session no longer counts as
 * busy.
 */
import { describe, expect, it } from "vitest";
import {
  a2a,
  describeStream,
  headTask,
  messageText,
  processesWithCommandLine,
  reply,
  text,
} from "../support/harness/index.js";
import {
  conversationKeyOf,
  isWakeRequest,
  mappedConversationKey,
  startJobRules,
} from "../support/a2a/background.js";

describe("durability: sessions.maxBackgroundMs", () => {
  it("a never-ending background job is stopped after the limit: its process is gone and the waiting task says why", async () => {
    const h = await a2a({
      config: {
        sessions: { maxBackgroundMs: 3_000 },
        claude: { backgroundWaitTimeoutMs: 600_000 },
      },
    });
    // A command line unique to this test, so the scan finds this job's process and no other.
    const marker = `900.${process.pid}${Date.now() % 100_000}`;
    h.bench.model.setRules([
      ...startJobRules(`sleep ${marker}`),
      {
        name: "wake",
        match: { when: isWakeRequest },
        reply: reply(text("The job was stopped.")),
      },
    ]);
    const stream = h.watch("Start the job");
    const isKind = (kind: string) => (e: (typeof stream.items)[number]) =>
      e.payload?.$case === "statusUpdate" &&
      e.payload.value.status?.message?.metadata?.kind === kind;
    await stream.first(isKind("background_wait"));
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).not.toEqual([]);
    const { contextId } = headTask(stream.items);
    // The context's live session, by its pool key: it has the job while it runs.
    const cwd = h.bench.sandbox.cwd;
    await expect.poll(() => conversationKeyOf(cwd, contextId), { timeout: 20_000 }).toBeDefined();
    const key = await mappedConversationKey(cwd, contextId);
    const jobs = () => h?.server.pool.peek(key)?.backgroundTasks().length ?? 0;
    expect(jobs()).toBe(1);

    const stopped = await stream.first(isKind("background_stopped"));
    const message = stopped.payload?.$case === "statusUpdate" ? stopped.payload.value : undefined;
    expect(messageText(message?.status?.message)).toMatch(
      /^Background task Run the job \(\w+\) stopped: the server stopped it after 3 s with no other activity in its session \(sessions\.maxBackgroundMs\)\.$/,
    );
    expect(message?.status?.message?.metadata).toMatchObject({ status: "stopped" });
    // The job's process is gone, and the session has no background work keeping it busy.
    await expect.poll(() => processesWithCommandLine(marker), { timeout: 20_000 }).toEqual([]);
    await expect.poll(jobs, { timeout: 20_000 }).toBe(0);
    // Nothing is left to wait for (the runtime starts no turn for stopped work): the task ends
    // with the answer it had, and the session can be closed.
    const events = await stream.done;
    expect(describeStream(events).slice(-2)).toEqual(["status:working:result", "status:completed"]);
    expect(h.bench.model.unmatched).toEqual([]);
  }, 120_000);
});
