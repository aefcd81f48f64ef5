import { describe, expect, it } from "vitest";
import { isNotModified, wantsLegacyCard } from "../../../src/http/card-route.js";

describe("isNotModified", () => {
  const doc = { body: "{}", etag: '"abc"', lastModified: "Tue, 04 Mar 2025 05:06:07 GMT" };

  it.each([
    [{ ifNoneMatch: '"abc"' }, true],
    [{ ifNoneMatch: 'W/"abc"' }, true],
    [{ ifNoneMatch: '"x", "abc"' }, true],
    [{ ifNoneMatch: "*" }, true],
    [{ ifNoneMatch: '"x"' }, false],
    [{ ifModifiedSince: "Tue, 04 Mar 2025 05:06:07 GMT" }, true],
    [{ ifModifiedSince: "Wed, 05 Mar 2025 00:00:00 GMT" }, true],
    [{ ifModifiedSince: "Mon, 03 Mar 2025 00:00:00 GMT" }, false],
    [{ ifModifiedSince: "not a date" }, false],
    [{ ifNoneMatch: '"x"', ifModifiedSince: "Wed, 05 Mar 2025 00:00:00 GMT" }, false],
    [{}, false],
  ])("%j → %s", (conditionals, expected) => {
    expect(isNotModified(conditionals, doc)).toBe(expected);
  });
});

describe("wantsLegacyCard", () => {
  it.each([
    [undefined, true],
    ["", true],
    [" ", true],
    ["0.3", true],
    ["0.3.1", true],
    ["0.9", true],
    ["0.2", false],
    ["1.0", false],
    ["2.0", false],
    ["0.30x", false],
    ["abc", false],
  ])("A2A-Version %j → %s", (header, expected) => {
    expect(wantsLegacyCard(header)).toBe(expected);
  });
});
