import { describe, expect, it } from "vitest";
import { conversationKey } from "../../../src/identity/conversation.js";
import { metricsCallerLabel, OTHER_CALLER } from "../../../src/identity/metrics-caller.js";

describe("metricsCallerLabel", () => {
  const label = metricsCallerLabel({ tokens: ["ci"], logins: [], triggers: ["fix"] });
  const of = (owner: string) => label(conversationKey({ owner, contextId: "c" }));

  it("names the callers the config names, a trigger among them", () => {
    expect(of("token:ci")).toBe("token:ci");
    expect(of("trigger:fix")).toBe("trigger:fix");
  });

  it("puts every other caller under one label", () => {
    expect(of("trigger:other")).toBe(OTHER_CALLER);
    expect(of("token:fix")).toBe(OTHER_CALLER);
  });
});
