import { describe, expect, it } from "vitest";
import {
  describeSwitch,
  resolveSettings,
  settingsSwitch,
  type TurnSettings,
} from "../../../src/claude/turn-settings.js";

const narrow = { network: { deniedDomains: ["a.example"] } };

describe("settingsSwitch: a task's sandbox overlay", () => {
  it.each<[string, TurnSettings, TurnSettings, object]>([
    ["none before, none now: nothing", {}, {}, {}],
    ["an overlay asked: applied", {}, { sandbox: narrow }, { sandbox: { to: narrow } }],
    ["the same overlay again: nothing", { sandbox: narrow }, { sandbox: { ...narrow } }, {}],
    ["none after one: dropped (null)", { sandbox: narrow }, {}, { sandbox: { to: null } }],
  ])("%s", (_name, current, next, expected) => {
    expect(settingsSwitch(current, next)).toEqual(expected);
  });

  it("the overlay has no default: a prompt asking for none runs with none", () => {
    expect(resolveSettings({}, { model: "m", sandbox: narrow }).sandbox).toBeUndefined();
  });

  it("says what it switches to, without the settings", () => {
    expect(describeSwitch({ sandbox: { to: narrow } })).toBe("a narrower sandbox");
    expect(describeSwitch({ sandbox: { to: null } })).toBe("the session's sandbox");
  });
});
