import { describe, expect, it } from "vitest";
import { collect } from "./support/helpers.js";
import { reply, sdk } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

describe("ClaudeSession: steering a foreground run", () => {
  it("pushes the message with its priority; the run's stream says steered when a frame lists it", async () => {
    const { fake, session, start } = scriptedSession();
    const { stream, stamp, out } = await start("build it", 0);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }));
    const outcome = session.steer(stream.runId, "also the changelog", "next");
    expect(outcome.kind).toBe("sent");
    const pushed = await fake.query.sentMessage(1);
    expect(pushed).toMatchObject({
      type: "user",
      message: { role: "user", content: "also the changelog" },
      priority: "next",
    });
    const steerUuid = String(pushed.uuid);
    await fake.query.feed(sdk.text("m1", "done, changelog too", { stamp }), {
      ...sdk.result({ text: "done, changelog too", stamp }),
      user_message_uuids: [stamp, steerUuid],
    });
    const events = await out;
    expect(events.filter((e) => e.kind === "steered")).toEqual([
      { kind: "steered", type: "run_steered", runId: stream.runId, uuids: [steerUuid] },
    ]);
    expect(events.filter((e) => e.kind.startsWith("run_"))).toEqual([
      { kind: "run_completed", runId: stream.runId, text: "done, changelog too" },
    ]);
  });

  it("a message the turn did not take keeps the run for the runtime's next turn, which answers it", async () => {
    const { fake, session, start } = scriptedSession();
    const { stream, stamp, out } = await start("write notes", 0);
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }));
    const outcome = session.steer(stream.runId, "and a summary", "now");
    const pushed = await fake.query.sentMessage(1);
    expect(pushed).toMatchObject({ priority: "now" });
    expect(outcome).toEqual({ kind: "sent", uuid: String(pushed.uuid) });
    // The turn ends (stopped by `now`) without the message: the run is not over.
    await fake.query.feed(sdk.abortedResult({ stamp }));
    expect(session.runs().find((r) => r.id === stream.runId)?.state).not.toBe("error");
    expect(session.foregroundActive).toBe(true);
    await fake.query.feed(...reply(String(pushed.uuid), "m2", "Notes and a summary."));
    const events = await out;
    expect(events.filter((e) => e.kind === "steered")).toHaveLength(1);
    expect(events.filter((e) => e.kind.startsWith("run_"))).toEqual([
      { kind: "run_completed", runId: stream.runId, text: "Notes and a summary." },
    ]);
    expect(session.status).toBe("idle");
  });

  it("a run still queued here takes the message into its prompt", async () => {
    const { fake, session, send } = scriptedSession();
    const first = await send("one", 0);
    const second = session.stream("two");
    const out = collect(second);
    expect(session.steer(second.runId, "and three", "next").kind).toBe("merged");
    await fake.query.feed(...reply(first.stamp, "m1", "1"));
    const sent = await fake.query.sentMessage(1);
    expect(sent.message.content).toEqual([
      { type: "text", text: "two" },
      { type: "text", text: "and three" },
    ]);
    await fake.query.feed(...reply(String(sent.uuid), "m2", "2 and 3"));
    const events = await out;
    expect(events.filter((e) => e.kind === "steered")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ kind: "run_completed", text: "2 and 3" });
  });

  it("nothing is sent to a run that has ended, or that is not a foreground run", async () => {
    const { fake, session, start } = scriptedSession();
    const { stream, stamp, out } = await start("hi", 0);
    await fake.query.feed(...reply(stamp, "m1", "Hello!"));
    await out;
    expect(session.steer(stream.runId, "late", "next")).toEqual({ kind: "not_running" });
    expect(session.steer("no-such-run", "late", "next")).toEqual({ kind: "not_running" });
    expect(fake.query.sent).toHaveLength(1);
  });
});
