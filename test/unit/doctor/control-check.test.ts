import { describe, expect, it } from "vitest";
import { checkControl } from "../../../src/doctor/control-check.js";

const ON = "(a client activates it with its A2A-Extensions header)";

describe("--check: the control extension", () => {
  it.each([
    [true, true, ["plan"], `control extension on: steer, plan ${ON}`],
    [true, true, [], `control extension on: steer ${ON}`],
    [true, false, ["plan"], `control extension on: steer ${ON}`],
    [false, true, ["plan"], `control extension on: plan ${ON}`],
    [false, true, ["default"], "off: the card lists no control extension (server.control)"],
    [false, false, [], "off: the card lists no control extension (server.control)"],
  ] as const)(
    "server.control.steer %s, plan %s, claude.allowedPermissionModes %j",
    (steer, plan, allowedPermissionModes, detail) => {
      const config = {
        server: { control: { steer, plan, rewind: false, fork: false } },
        claude: { allowedPermissionModes: [...allowedPermissionModes] },
      };
      expect(checkControl(config)).toEqual({ name: "control", ok: true, detail });
    },
  );

  it("lists rewind and fork when they are on, in the card's order", () => {
    const config = {
      server: { control: { steer: true, plan: true, rewind: true, fork: true } },
      claude: { allowedPermissionModes: ["plan" as const] },
    };
    expect(checkControl(config).detail).toBe(
      `control extension on: steer, plan, rewind, fork ${ON}`,
    );
  });
});
