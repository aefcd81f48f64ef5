import { describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../../../src/claude/events.js";
import { collect } from "./support/helpers.js";
import {
  autonomousTurn,
  backgroundJobFinished,
  reply,
  sdk,
  startsBackgroundJob,
  interruptedMessage,
} from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

/** A foreground turn that starts background Bash `t1` (tool use tu-bg); the session goes idle. */
const launchesBackgroundTask = (stamp: string): unknown[] => [
  ...startsBackgroundJob(stamp, { command: "sleep 1" }),
  sdk.sessionState("idle"),
];

const wake = [...backgroundJobFinished(), sdk.sessionState("running")];

describe("ClaudeSession: autonomous runs", () => {
  it("names the background tasks whose completion caused a wake, and lets a listener follow it", async () => {
    const { fake, session, rec, send } = scriptedSession();
    const { stream, stamp } = await send("run sleep in the background", 0);
    await fake.query.feed(...launchesBackgroundTask(stamp));
    await collect(stream);
    const followed: Promise<RunStreamEvent[]>[] = [];
    session.subscribe((e) => {
      if (e.type !== "run_started" || e.origin !== "autonomous") return;
      const follower = session.follow(e.runId);
      if (follower !== undefined) followed.push(collect(follower));
    });
    await fake.query.feed(...wake, ...autonomousTurn("m3", "The sleep finished."));
    const auto = rec.of("run_started").find((e) => e.origin === "autonomous");
    expect(auto?.causes).toEqual(["t1"]);
    expect(followed).toHaveLength(1);
    const events = await followed[0];
    expect(events?.at(-1)).toEqual({
      kind: "run_completed",
      runId: auto?.runId,
      text: "The sleep finished.",
    });
    expect(events?.some((e) => e.kind === "assistant")).toBe(true);
    // A second wake with no notification before it (a Monitor) has no cause.
    await fake.query.feed(...autonomousTurn("m4", "Monitor fired."));
    expect(rec.of("run_started").filter((e) => e.origin === "autonomous")[1]?.causes).toEqual([]);
  });

  it("a notification folded into a foreground turn causes no later wake", async () => {
    const { fake, rec, send } = scriptedSession();
    const first = await send("run sleep in the background", 0);
    await fake.query.feed(...launchesBackgroundTask(first.stamp));
    await collect(first.stream);
    await fake.query.feed(sdk.taskNotification("t1", "tu-bg"), sdk.tasksChanged([]));
    const second = await send("and now?", 1);
    await fake.query.feed(...reply(second.stamp, "m5", "It finished."));
    await collect(second.stream);
    await fake.query.feed(...autonomousTurn("m6", "Monitor fired."));
    expect(rec.of("run_started").find((e) => e.origin === "autonomous")?.causes).toEqual([]);
  });

  it("turns a wake with no send pending into an autonomous run: running, then idle", async () => {
    const { fake, session, rec, send, turnMoves } = scriptedSession();
    const { stream, stamp } = await send("run sleep in the background", 0);
    await fake.query.feed(...launchesBackgroundTask(stamp));
    expect((await collect(stream)).at(-1)).toMatchObject({
      kind: "run_completed",
      text: "Started.",
    });
    expect(session.backgroundTasks().map((t) => t.taskId)).toEqual(["t1"]);
    expect(session.status).toBe("idle");

    await fake.query.feed(...wake, ...autonomousTurn("m3", "The sleep finished."));
    const auto = rec.of("run_started").find((e) => e.origin === "autonomous");
    expect(auto).toBeDefined();
    expect(rec.of("run_ended").find((e) => e.runId === auto?.runId)?.outcome).toEqual({
      state: "completed",
      text: "The sleep finished.",
    });
    expect(rec.of("status").map((s) => s.status)).toEqual(["running", "idle", "running", "idle"]);
    expect(turnMoves()).toEqual([
      "idle->foreground",
      "foreground->idle",
      "idle->autonomous",
      "autonomous->idle",
    ]);
    // Background work is attributed to the run that launched it.
    // The live set announces t1 before task_started names the tool use that launched it.
    expect(rec.of("background_task_started")[0]?.task).toMatchObject({ taskId: "t1", live: true });
    expect(rec.of("background_task_attributed")[0]?.task).toMatchObject({
      taskId: "t1",
      runId: stream.runId,
    });
    expect(rec.of("background_task_finished")[0]?.task).toMatchObject({
      status: "completed",
      runId: stream.runId,
    });
    expect(session.backgroundTasks()).toEqual([]);
    expect(await session.waitForFinish(1000)).toBe("idle");
  });

  it("cancels an autonomous run with no foreground prompt", async () => {
    const { fake, session, rec } = scriptedSession();
    session.start();
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "still going"));
    const auto = session.runs()[0];
    expect(auto).toMatchObject({ origin: "autonomous", state: "streaming" });
    expect(session.status).toBe("running");
    fake.query.onInterrupt = () => fake.query.emit(...interruptedMessage("mA", "still going"));
    await session.interrupt();
    expect(fake.query.interrupts).toBe(1);
    expect(session.runs()[0]).toMatchObject({
      state: "interrupted",
      outcome: { state: "interrupted", text: "still going" },
    });
    expect(session.status).toBe("idle");
    expect(session.turnState).toBe("idle");
    expect(rec.of("run_state").map((e) => e.to)).toEqual([
      "streaming",
      "finalizing",
      "interrupted",
    ]);
  });

  it("takes the atomic path from autonomous to foreground: interrupt, await teardown, then send", async () => {
    const { fake, session, rec, runState, turnMoves } = scriptedSession();
    session.start();
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "auto "));
    const autoId = session.runs()[0]?.id ?? "";
    let sentBeforeTeardown = -1;
    fake.query.onInterrupt = () => {
      sentBeforeTeardown = fake.query.sent.length;
      fake.query.emit(
        sdk.text("mA", "auto ", { aborted: true }),
        sdk.interruptedMarker(),
        sdk.messageStop(),
      );
    };
    const fg = session.stream("hello");
    const out = collect(fg);
    await fake.query.drained();
    // The teardown's result has not arrived: the prompt must not be pushed into the runtime yet.
    expect(fake.query.interrupts).toBe(1);
    expect(sentBeforeTeardown).toBe(0);
    expect(fake.query.sent).toHaveLength(0);
    expect(runState(fg.runId)).toBe("queued");
    expect(session.status).toBe("running");

    await fake.query.feed(sdk.abortedResult());
    const sent = await fake.query.sentMessage(0);
    expect(runState(autoId)).toBe("interrupted");
    await fake.query.feed(...reply(String(sent.uuid), "m1", "HELLO"));
    const events = await out;
    expect(events.at(-1)).toMatchObject({ kind: "run_completed", text: "HELLO" });
    expect(events.some((e) => "messageId" in e && e.messageId === "mA")).toBe(false);
    expect(turnMoves()).toEqual(["idle->autonomous", "autonomous->foreground", "foreground->idle"]);
    // The autonomous run's partial output stays in the timeline, attributed to it.
    const history = [];
    for await (const e of session.streamHistory()) history.push(e);
    expect(history.find((e) => e.kind === "assistant" && e.messageId === "mA")).toMatchObject({
      runId: autoId,
      status: "aborted",
      text: "auto ",
    });
    expect(rec.of("status").map((s) => s.status)).toEqual(["running", "idle"]);
  });

  it("interrupts a prompt still waiting behind a turn the runtime started first", async () => {
    const { fake, session, start } = scriptedSession();
    const { stamp, out } = await start("hello", 0);
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "wake"));
    const teardowns = [
      // The first interrupt stops the turn ahead of ours; our message then runs in the runtime.
      () => fake.query.emit(sdk.text("mA", "wake", { aborted: true }), sdk.abortedResult()),
      () => fake.query.emit(sdk.text("m1", "Hel", { aborted: true }), sdk.abortedResult({ stamp })),
    ];
    fake.query.onInterrupt = () => teardowns[fake.query.interrupts - 1]?.();
    const interrupted = session.interrupt();
    await fake.query.drained();
    expect(session.runs().map((r) => `${r.origin}:${r.state}`)).toEqual([
      "foreground:finalizing",
      "autonomous:interrupted",
    ]);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }), sdk.textDelta(0, "Hel"));
    await interrupted;
    expect(fake.query.interrupts).toBe(2);
    expect((await out).at(-1)).toMatchObject({ kind: "run_interrupted", text: "Hel" });
    expect(session.status).toBe("idle");
  });

  it("keeps foreground exclusivity under interleaved task, state and subagent frames", async () => {
    const { fake, session, rec, transitions, start } = scriptedSession();
    const { stream, stamp, out } = await start("hello", 0);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }), sdk.textDelta(0, "Hi"));
    const interleaved = [
      sdk.taskNotification("t-old", "tu-old"),
      sdk.tasksChanged([]),
      sdk.sessionState("running"),
      sdk.unknown("command_lifecycle"),
      sdk.text("m-sub", "subagent says", { parent: "tu-unknown" }),
      sdk.messageStart("m-sub2", { parent: "tu-unknown" }),
      sdk.text("m9", "a frame with no identifier we know"),
      sdk.toolResult("tu-unknown", "result"),
    ];
    await fake.query.feed(...interleaved);
    expect(session.runs()).toHaveLength(1);
    expect(session.turnState).toBe("foreground");
    await fake.query.feed(
      sdk.text("m1", "Hi", { stamp }),
      sdk.messageStop(),
      sdk.result({ text: "Hi", stamp }),
    );
    const events = await out;
    expect(events.at(-1)).toMatchObject({ kind: "run_completed", text: "Hi" });
    const ids = (e: RunStreamEvent) => ("messageId" in e ? e.messageId : undefined);
    expect(events.map(ids)).toEqual(expect.arrayContaining(["m-sub", "m-sub2", "m9"]));
    expect(rec.of("run_started").map((e) => e.origin)).toEqual(["foreground"]);
    expect(transitions(stream.runId)).toEqual([
      "awaiting_response",
      "streaming",
      "finalizing",
      "completed",
    ]);
  });

  it("a task notification arriving during a foreground run changes no lifecycle", async () => {
    const { fake, session, rec, send, start } = scriptedSession();
    const first = await send("start background work", 0);
    await fake.query.feed(...launchesBackgroundTask(first.stamp));
    const { stamp, out } = await start("hello", 1);
    await fake.query.feed(sdk.init(), sdk.messageStart("m5", { stamp }), sdk.textDelta(0, "Hel"));
    const before = { states: rec.of("run_state").length, turns: rec.of("turn_state").length };
    await fake.query.feed(...wake);
    expect(rec.of("run_state")).toHaveLength(before.states);
    expect(rec.of("turn_state")).toHaveLength(before.turns);
    expect(session.runs().map((r) => r.state)).toEqual(["completed", "streaming"]);
    expect(session.status).toBe("running");
    // The notification was still recorded, as metadata attributed to the launching run.
    expect(rec.of("background_task_finished")[0]?.task).toMatchObject({
      runId: first.stream.runId,
    });
    await fake.query.feed(sdk.text("m5", "Hello", { stamp }), sdk.result({ text: "Hello", stamp }));
    expect((await out).at(-1)).toMatchObject({ kind: "run_completed", text: "Hello" });
  });

  it("routes late frames of an ended run to that run without touching any lifecycle", async () => {
    const { fake, session, rec, send } = scriptedSession();
    const first = await send("start a subagent", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.toolUse(
        "m1",
        "tu-agent",
        "Task",
        { prompt: "x", run_in_background: true },
        { stamp: first.stamp },
      ),
      sdk.result({ text: "launched", stamp: first.stamp }),
    );
    await fake.query.feed(sdk.text("m-sub", "subagent progress", { parent: "tu-agent" }));
    expect(session.runs()).toHaveLength(1);
    expect(session.status).toBe("idle");
    const late = rec.of("run_event").filter((e) => e.late);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ runId: first.stream.runId, event: { messageId: "m-sub" } });
  });
});
