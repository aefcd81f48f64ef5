import { describe, expect, it } from "vitest";
import { resolveSettings, settingsSwitch } from "../../../src/claude/turn-settings.js";
import { collect } from "./support/helpers.js";
import { reply, sdk } from "./support/sdk-messages.js";
import { scriptedSession } from "./support/session.js";

describe("turn settings (pure)", () => {
  it.each([
    [{ model: "a", effort: "low" }, { model: "a", effort: "low" }, {}],
    [{ model: "a" }, { model: "b" }, { model: { to: "b" } }],
    [{ model: "b" }, { model: undefined }, { model: { to: undefined } }],
    [{ effort: "low" }, { effort: "high" }, { effort: { to: "high" } }],
    [{ effort: "high" }, {}, { effort: { to: null } }],
    [{ model: "a" }, { model: "b", effort: "max" }, { model: { to: "b" }, effort: { to: "max" } }],
  ] as const)("from %j to %j switches %j", (current, next, expected) => {
    expect(settingsSwitch(current, next)).toEqual(expected);
  });

  it("fills what a prompt leaves out from the session's defaults", () => {
    expect(resolveSettings({}, { model: "d", effort: "low" })).toEqual({
      model: "d",
      effort: "low",
    });
    expect(resolveSettings({ effort: "high" }, { model: "d" })).toEqual({
      model: "d",
      effort: "high",
    });
  });
});

describe("ClaudeSession: a prompt's model and effort", () => {
  it("starts the process with the first prompt's settings: no switch", async () => {
    const { fake, session } = scriptedSession({ model: "default-model", effort: "low" });
    const stream = session.stream("hi", { model: "other", effort: "high" });
    const sent = await fake.query.sentMessage(0);
    expect(fake.query.options).toMatchObject({ model: "other", effort: "high" });
    expect(fake.query.switches).toEqual([]);
    const out = collect(stream);
    await fake.query.feed(...reply(String(sent.uuid), "m1", "ok"));
    expect((await out).at(-1)?.kind).toBe("run_completed");
  });

  it("switches the live process before a prompt that asks for another, and back for one that asks for none", async () => {
    const { fake, session } = scriptedSession({ model: "default-model" });
    const turn = async (index: number, settings?: Parameters<typeof session.stream>[1]) => {
      const stream = session.stream(`p${index}`, settings);
      const sent = await fake.query.sentMessage(index);
      const switches = [...fake.query.switches];
      const out = collect(stream);
      await fake.query.feed(...reply(String(sent.uuid), `m${index}`, "ok"));
      expect((await out).at(-1)?.kind).toBe("run_completed");
      return switches;
    };
    expect(await turn(0)).toEqual([]);
    expect(fake.query.options.model).toBe("default-model");
    expect(await turn(1, { model: "big", effort: "max" })).toEqual([
      { model: "big" },
      { effortLevel: "max" },
    ]);
    // Same settings again: nothing to switch.
    expect(await turn(2, { model: "big", effort: "max" })).toHaveLength(2);
    expect(await turn(3)).toEqual([
      { model: "big" },
      { effortLevel: "max" },
      { model: "default-model" },
      { effortLevel: null },
    ]);
    expect(fake.queries).toHaveLength(1);
  });

  it("fails the prompt's run, saying why, when the runtime refuses the switch; the next prompt goes", async () => {
    const { fake, session } = scriptedSession({ model: "default-model" });
    const first = session.stream("p0");
    const sent = await fake.query.sentMessage(0);
    const firstOut = collect(first);
    await fake.query.feed(...reply(String(sent.uuid), "m0", "ok"));
    await firstOut;
    fake.query.failNextSwitch = new Error("model not available");
    const refused = await collect(session.stream("p1", { model: "nope" }));
    expect(refused.at(-1)).toMatchObject({
      kind: "run_failed",
      reason: "Claude Code could not switch to model nope: model not available",
    });
    expect(fake.query.sent).toHaveLength(1);
    const next = session.stream("p2");
    const sentNext = await fake.query.sentMessage(1);
    expect(sentNext.message.content).toBe("p2");
    const nextOut = collect(next);
    await fake.query.feed(...reply(String(sentNext.uuid), "m2", "ok"));
    expect((await nextOut).at(-1)?.kind).toBe("run_completed");
    expect(fake.query.switches).toEqual([]);
  });

  it("after the atomic handoff from an autonomous turn, switches first, then sends", async () => {
    const { fake, session, turnMoves } = scriptedSession({ model: "default-model" });
    session.start();
    await fake.query.feed(sdk.init(), sdk.messageStart("mA"), sdk.textDelta(0, "auto "));
    fake.query.onInterrupt = () =>
      fake.query.emit(sdk.text("mA", "auto ", { aborted: true }), sdk.interruptedMarker());
    let sentAtSwitch = -1;
    const setModel = fake.query.setModel.bind(fake.query);
    fake.query.setModel = (model) => {
      sentAtSwitch = fake.query.sent.length;
      return setModel(model);
    };
    const fg = session.stream("hello", { model: "big" });
    const out = collect(fg);
    await fake.query.feed(sdk.messageStop(), sdk.abortedResult());
    const sent = await fake.query.sentMessage(0);
    expect(sentAtSwitch).toBe(0);
    expect(fake.query.switches).toEqual([{ model: "big" }]);
    await fake.query.feed(...reply(String(sent.uuid), "m1", "HELLO"));
    expect((await out).at(-1)).toMatchObject({ kind: "run_completed", text: "HELLO" });
    expect(turnMoves()).toEqual([
      "idle->autonomous",
      "autonomous->idle",
      "idle->foreground",
      "foreground->idle",
    ]);
  });
});
