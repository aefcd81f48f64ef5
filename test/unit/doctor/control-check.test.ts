import { describe, expect, it } from "vitest";
import { checkControl } from "../../../src/doctor/control-check.js";

describe("--check: the control extension", () => {
  it.each([
    [true, "control extension on: steer (a client activates it with its A2A-Extensions header)"],
    [false, "off: the card lists no control extension (server.control)"],
  ])("server.control.steer %s", (steer, detail) => {
    expect(checkControl({ control: { steer } })).toEqual({ name: "control", ok: true, detail });
  });
});
