import { describe, expect, it } from "vitest";
import { activatedExtensions } from "../../../src/contract/extensions.js";
import {
  EVENTS_EXTENSION_URI,
  EVENTS_EXTENSION_VERSION,
  eventsExtension,
  eventsExtensionParams,
} from "../../../src/contract/extension.js";
import { KIND } from "../../../src/contract/kinds.js";

describe("the event extension", () => {
  it("has one versioned URI under the project's name", () => {
    expect(EVENTS_EXTENSION_URI).toBe(
      `https://github.com/claude-a2a/claude-a2a/extensions/events/v${EVENTS_EXTENSION_VERSION}`,
    );
  });

  it("activates ours only, whatever else a client asks for", () => {
    expect(activatedExtensions(undefined)).toEqual([]);
    expect(activatedExtensions(["https://example.com/x"])).toEqual([]);
    expect(activatedExtensions(["https://example.com/x", EVENTS_EXTENSION_URI])).toEqual([
      EVENTS_EXTENSION_URI,
    ]);
    // Another version of ours is another extension.
    expect(activatedExtensions([EVENTS_EXTENSION_URI.replace(/v1$/, "v2")])).toEqual([]);
  });

  it("names every kind, the prompts and their answers in its parameters", () => {
    expect(eventsExtensionParams()).toEqual({
      version: "1",
      kinds: Object.values(KIND),
      prompts: ["ask_user_question", "permission_request"],
      answers: ["answers", "permission_response"],
    });
    expect(eventsExtension(true).params).toEqual(eventsExtensionParams());
    expect(eventsExtension().params).toBeUndefined();
    expect(eventsExtension().required).toBe(false);
  });
});
