import { describe, expect, it } from "vitest";
import type { AgentCard } from "@a2a-js/sdk";
import { CONTROL_EXTENSION_URI, controlExtension } from "../../../src/contract/control.js";
import { offersControl } from "../../../src/client/steering.js";

type Capabilities = NonNullable<AgentCard["capabilities"]>;

const withExtensions = (extensions: unknown[]): Pick<AgentCard, "capabilities"> => ({
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: extensions as Capabilities["extensions"],
    extendedAgentCard: false,
  },
});

describe("chat steers only when the card offers it (pure)", () => {
  it.each([
    ["steer and plan on", [controlExtension(["steer", "plan"])], true],
    ["only plan on", [controlExtension(["plan"])], false],
    ["no control extension", [], false],
    [
      "another extension",
      [{ uri: "https://example.com/x", params: { controls: ["steer"] } }],
      false,
    ],
    ["controls not a list", [{ uri: CONTROL_EXTENSION_URI, params: { controls: "steer" } }], false],
    ["no params", [{ uri: CONTROL_EXTENSION_URI }], false],
  ])("%s", (_name, extensions, expected) => {
    expect(offersControl(withExtensions(extensions), "steer")).toBe(expected);
  });

  it("a card without capabilities offers nothing", () => {
    expect(offersControl({ capabilities: undefined }, "steer")).toBe(false);
  });
});
