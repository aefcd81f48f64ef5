import { describe, expect, it } from "vitest";
import { collect } from "./support/helpers.js";
import { reply, sdk, interruptedMessage } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

describe("ClaudeSession: foreground runs", () => {
  it("streams one run through its whole lifecycle and ends with one completed event", async () => {
    const { fake, session, rec, transitions, start, turnMoves } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    expect(fake.query.sent[0]).toMatchObject({
      type: "user",
      message: { role: "user", content: "hi" },
    });
    await fake.query.feed(...reply(stamp, "m1", "Hello!"));
    const events = await out;
    expect(events.filter((e) => e.kind.startsWith("run_"))).toEqual([
      { kind: "run_completed", runId: stream.runId, text: "Hello!" },
    ]);
    expect(events.at(-1)?.kind).toBe("run_completed");
    expect(events.some((e) => e.kind === "stream" && e.part.type === "content_block_delta")).toBe(
      true,
    );
    expect(transitions(stream.runId)).toEqual([
      "awaiting_response",
      "streaming",
      "finalizing",
      "completed",
    ]);
    expect(turnMoves()).toEqual(["idle->foreground", "foreground->idle"]);
    expect(rec.of("status").map((s) => s.status)).toEqual(["running", "idle"]);
    expect(session.sessionId).toBe("11111111-1111-4111-8111-111111111111");
  });

  it("runs one foreground at a time: a second prompt waits, queued, until the first ends", async () => {
    const { fake, send, session, runState } = scriptedSession();
    const first = await send("one", 0);
    const second = session.stream("two");
    const outs = [collect(first.stream), collect(second)];
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp: first.stamp }));
    expect(runState(second.runId)).toBe("queued");
    expect(fake.query.sent).toHaveLength(1);
    await fake.query.feed(
      sdk.text("m1", "1", { stamp: first.stamp }),
      sdk.result({ text: "1", stamp: first.stamp }),
    );
    const sent = await fake.query.sentMessage(1);
    expect(runState(second.runId)).toBe("awaiting_response");
    await fake.query.feed(...reply(String(sent.uuid), "m2", "2"));
    const [a, b] = await Promise.all(outs);
    expect(a?.at(-1)).toMatchObject({ kind: "run_completed", text: "1" });
    expect(b?.at(-1)).toMatchObject({ kind: "run_completed", text: "2" });
    expect(session.status).toBe("idle");
  });

  it("interrupts a streaming foreground run, ends it interrupted, and the next prompt works", async () => {
    const { fake, session, send, transitions, start } = scriptedSession();
    const { stream, stamp, out } = await start("write a long story", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.messageStart("m1", { stamp }),
      sdk.textDelta(0, "Once upon"),
    );
    fake.query.onInterrupt = () =>
      fake.query.emit(...interruptedMessage("m1", "Once upon", { stamp }));
    await session.interrupt();
    expect(fake.query.interrupts).toBe(1);
    expect((await out).at(-1)).toEqual({
      kind: "run_interrupted",
      runId: stream.runId,
      reason: "aborted_streaming",
      text: "Once upon",
    });
    expect(transitions(stream.runId)).toEqual([
      "awaiting_response",
      "streaming",
      "finalizing",
      "interrupted",
    ]);
    expect(session.turnState).toBe("idle");

    const next = await send("hello", 1);
    const nextOut = collect(next.stream);
    await fake.query.feed(...reply(next.stamp, "m2", "HELLO"));
    expect((await nextOut).at(-1)).toMatchObject({ kind: "run_completed", text: "HELLO" });
  });

  it("fails a run whose turn ends in error, then recovers on the next prompt", async () => {
    const { fake, session, send, start } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.result({
        stamp,
        isError: true,
        text: "API Error: 400 bad request",
        terminalReason: "api_error",
      }),
    );
    expect((await out).at(-1)).toEqual({
      kind: "run_failed",
      runId: stream.runId,
      reason: "API Error: 400 bad request",
    });
    expect(session.status).toBe("error");
    expect(await session.waitForFinish(1000)).toBe("error");
    const next = await send("again", 1);
    const nextOut = collect(next.stream);
    await fake.query.feed(...reply(next.stamp, "m2", "ok"));
    expect((await nextOut).at(-1)).toMatchObject({ kind: "run_completed" });
    expect(session.status).toBe("idle");
  });

  it("fails a run the runtime could not authenticate with that cause, keeping its text as the reason", async () => {
    const { fake, start } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    const text = "Not logged in · Please run /login";
    // As Claude Code 2.1 answers with no API key and no login: no model call, no stream frames.
    await fake.query.feed(
      sdk.init(),
      sdk.apiError("m1", text, { stamp, error: "authentication_failed" }),
      sdk.result({ stamp, isError: true, text, terminalReason: "api_error", apiErrorStatus: null }),
    );
    expect((await out).at(-1)).toEqual({
      kind: "run_failed",
      runId: stream.runId,
      reason: text,
      cause: "authentication_failed",
    });
  });

  it("a failure cause of an earlier message does not outlive the message that recovered", async () => {
    const { fake, start } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    await fake.query.feed(
      sdk.init(),
      sdk.apiError("m1", "Not logged in", { stamp, error: "authentication_failed" }),
      sdk.text("m2", "logged in meanwhile"),
      sdk.result({ stamp, subtype: "error_max_turns", isError: true, errors: ["max turns"] }),
    );
    expect((await out).at(-1)).toEqual({
      kind: "run_failed",
      runId: stream.runId,
      reason: "max turns",
    });
  });

  it("a stale result queued before the prompt (stamped with an earlier send) does not complete it", async () => {
    const { fake, send, runState } = scriptedSession();
    const first = await send("one", 0);
    await fake.query.feed(...reply(first.stamp, "m1", "first answer"));
    const second = await send("two", 1);
    const out = collect(second.stream);
    await fake.query.feed(sdk.result({ text: "first answer", stamp: first.stamp }));
    expect(runState(second.stream.runId)).toBe("awaiting_response");
    await fake.query.feed(...reply(second.stamp, "m2", "second answer"));
    const events = await out;
    expect(events.at(-1)).toMatchObject({ kind: "run_completed", text: "second answer" });
    expect(events.filter((e) => e.kind === "result")).toHaveLength(1);
  });

  it("a stale autonomous turn that the runtime ran before our prompt never reaches the prompt", async () => {
    const { fake, session, runState, rec, start } = scriptedSession();
    const { stream, stamp, out } = await start("hello", 0);
    // The wake began in the runtime before our send arrived: its frames carry no stamp of ours.
    await fake.query.feed(
      sdk.init(),
      sdk.messageStart("mA"),
      sdk.textDelta(0, "background done"),
      sdk.text("mA", "background done"),
      sdk.messageStop(),
      sdk.autonomousResult("background done"),
    );
    expect(runState(stream.runId)).toBe("awaiting_response");
    expect(session.turnState).toBe("foreground");
    await fake.query.feed(...reply(stamp, "m1", "HELLO"));
    const events = await out;
    expect(events.at(-1)).toMatchObject({ kind: "run_completed", text: "HELLO" });
    expect(events.some((e) => "messageId" in e && e.messageId === "mA")).toBe(false);
    const auto = session.runs().find((r) => r.origin === "autonomous");
    expect(auto?.outcome).toEqual({ state: "completed", text: "background done" });
    expect(rec.of("run_ended").map((e) => e.origin)).toEqual(["autonomous", "foreground"]);
    const history = [];
    for await (const e of session.streamHistory()) history.push(e);
    expect(history.map((e) => (e.kind === "user" ? "user" : `${e.messageId}@${e.runId}`))).toEqual([
      "user",
      `mA@${auto?.id}`,
      `m1@${stream.runId}`,
    ]);
  });

  it("binds the runtime's folding of our prompt into the running turn to the prompt", async () => {
    const { fake, session, start } = scriptedSession();
    const { stamp, out } = await start("also do this", 0);
    await fake.query.feed(sdk.init(), sdk.text("mA", "working on the notification"));
    await fake.query.feed(
      sdk.text("m2", "and your request", { stamp }),
      sdk.result({ text: "both", stamp }),
    );
    expect((await out).at(-1)).toMatchObject({ kind: "run_completed", text: "both" });
    expect(
      session
        .runs()
        .map((r) => `${r.origin}:${r.state}`)
        .sort(),
    ).toEqual(["autonomous:completed", "foreground:completed"]);
    expect(session.status).toBe("idle");
  });

  it("stopping the iteration of a queued prompt cancels it before it is sent", async () => {
    const { fake, session, send, runState } = scriptedSession();
    const first = await send("one", 0);
    const second = session.stream("two");
    const iterator = second[Symbol.asyncIterator]();
    await iterator.return?.();
    expect(runState(second.runId)).toBe("interrupted");
    await fake.query.feed(...reply(first.stamp, "m1", "1"));
    await fake.query.drained();
    expect(fake.query.sent).toHaveLength(1);
    expect(session.status).toBe("idle");
  });
});
