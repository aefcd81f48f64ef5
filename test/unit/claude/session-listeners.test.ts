/**
 * Callers react to session events by calling the session back, synchronously, from the listener
 * (the layer above sends a prompt the moment a wake begins). The session's state must already be
 * true when the event goes out. Found by the real-runtime e2e gates.
 */
import { describe, expect, it } from "vitest";
import type { FinishStatus } from "../../../src/claude/session.js";
import { collect } from "./support/helpers.js";
import { autonomousTurn, reply, sdk, interruptedMessage } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

describe("ClaudeSession: calls made from an event listener", () => {
  it("waitForFinish called on an autonomous run_started resolves idle only after that run", async () => {
    const { fake, session, rec } = scriptedSession();
    let finished: { status: FinishStatus; afterEvents: number } | undefined;
    session.subscribe((e) => {
      if (e.type === "run_started" && e.origin === "autonomous") {
        void session.waitForFinish(1000).then((status) => {
          finished = { status, afterEvents: rec.events.length };
        });
      }
    });
    session.start();
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "waking"));
    expect(session.status).toBe("running");
    await Promise.resolve();
    expect(finished).toBeUndefined();

    await fake.query.feed(...autonomousTurn("mA", "woke up").slice(4));
    await Promise.resolve();
    const ended = rec.events.findIndex((e) => e.type === "run_ended");
    expect(ended).toBeGreaterThan(0);
    expect(finished?.status).toBe("idle");
    expect(finished?.afterEvents).toBeGreaterThan(ended);
  });

  it("waitForFinish called on a foreground run_started does not resolve before the run ends", async () => {
    const { fake, session, start } = scriptedSession();
    let finish: Promise<FinishStatus> | undefined;
    session.subscribe((e) => {
      if (e.type === "run_started") finish ??= session.waitForFinish(1000);
    });
    const { stamp, out } = await start("hi", 0);
    let settled: FinishStatus | undefined;
    void finish?.then((s) => (settled = s));
    await fake.query.feed(sdk.init(), sdk.messageStart("m1", { stamp }));
    expect(settled).toBeUndefined();
    await fake.query.feed(...reply(stamp, "m1", "Hello").slice(2));
    await out;
    expect(await finish).toBe("idle");
  });

  it("announces each run_ended before the status it leads to, foreground and autonomous", async () => {
    const { fake, session, rec, start } = scriptedSession();
    const { stamp, out } = await start("hi", 0);
    await fake.query.feed(...reply(stamp, "m1", "Hello"));
    await out;
    await fake.query.feed(...autonomousTurn("mA", "woke up"));
    const order = rec.events.flatMap((e) =>
      e.type === "status"
        ? [e.status]
        : e.type === "run_started" || e.type === "run_ended"
          ? [`${e.type}:${e.origin}`]
          : [],
    );
    expect(order).toEqual([
      "run_started:foreground",
      "running",
      "run_ended:foreground",
      "idle",
      "run_started:autonomous",
      "running",
      "run_ended:autonomous",
      "idle",
    ]);
    expect(session.status).toBe("idle");
  });

  it("a prompt sent on the autonomous run_started takes the atomic handoff", async () => {
    const { fake, session, rec, runState, turnMoves } = scriptedSession();
    let fg: ReturnType<typeof session.stream> | undefined;
    session.subscribe((e) => {
      if (e.type === "run_started" && e.origin === "autonomous") fg = session.stream("hello");
    });
    session.start();
    fake.query.onInterrupt = () => fake.query.emit(...interruptedMessage("mA", "wak"));
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "wak"));
    if (fg === undefined) throw new Error("no prompt was sent from the listener");
    const out = collect(fg);
    // The wake was interrupted; the prompt went to the runtime only after the wake's teardown.
    expect(fake.query.interrupts).toBe(1);
    const sent = await fake.query.sentMessage(0);
    const autoId = rec.of("run_started").find((e) => e.origin === "autonomous")?.runId ?? "";
    expect(runState(autoId)).toBe("interrupted");
    await fake.query.feed(...reply(String(sent.uuid), "m1", "HELLO"));
    expect((await out).at(-1)).toMatchObject({ kind: "run_completed", text: "HELLO" });
    expect(turnMoves()).toEqual(["idle->autonomous", "autonomous->foreground", "foreground->idle"]);
    expect(session.status).toBe("idle");
  });

  it("every listener sees events in the order they happened, even those a listener caused", async () => {
    const { fake, session } = scriptedSession();
    // The first listener reacts to the wake by sending a prompt (which interrupts the wake) ...
    session.subscribe((e) => {
      if (e.type === "run_started" && e.origin === "autonomous") session.stream("hello");
    });
    // ... a later listener must still see the wake start before anything about it happens.
    const seen: string[] = [];
    session.subscribe((e) => {
      if (e.type === "run_started") seen.push(`run_started:${e.origin}`);
      else if (e.type === "run_state") seen.push(`run_state:${e.origin}:${e.to}`);
      else if (e.type === "status") seen.push(`status:${e.status}`);
    });
    session.start();
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"));
    expect(seen).toEqual([
      "run_started:autonomous",
      "run_started:foreground",
      "status:running",
      "run_state:autonomous:finalizing",
    ]);
  });
});
