import { describe, expect, it } from "vitest";
import { capInput, capText } from "../../../src/contract/tool-io.js";

describe("capText: a tool's output cut to the cap", () => {
  it.each([
    { text: "ok", max: 10, out: "ok", bytes: 2, truncated: false },
    { text: "abcdef", max: 6, out: "abcdef", bytes: 6, truncated: false },
    { text: "abcdefgh", max: 5, out: "abcde", bytes: 8, truncated: true },
    // Three bytes a character: never half of one.
    { text: "ééé", max: 3, out: "é", bytes: 6, truncated: true },
    { text: "😀😀", max: 5, out: "😀", bytes: 8, truncated: true },
    { text: "", max: 0, out: "", bytes: 0, truncated: false },
  ])("$text at $max bytes", ({ text, max, out, bytes, truncated }) => {
    const capped = capText(text, max);
    expect(capped).toEqual({ text: out, bytes, truncated });
    expect(new TextEncoder().encode(capped.text).length).toBeLessThanOrEqual(max);
  });
});

describe("capInput: long strings of a tool's input cut, its paths and commands whole", () => {
  it("keeps a small input as it is", () => {
    const input = { command: "npm test", timeout: 5, flags: ["a", "b"] };
    expect(capInput(input, 100)).toEqual({ input, truncated: false });
  });
  it("cuts a Write's long content and says so, the path kept", () => {
    const input = { file_path: "a.txt", content: "x".repeat(50) };
    expect(capInput(input, 10)).toEqual({
      input: { file_path: "a.txt", content: "x".repeat(10) },
      truncated: true,
    });
  });
  it("cuts strings nested in arrays and objects (MultiEdit's edits)", () => {
    const input = { edits: [{ old_string: "y".repeat(20), new_string: "z" }] };
    expect(capInput(input, 4)).toEqual({
      input: { edits: [{ old_string: "yyyy", new_string: "z" }] },
      truncated: true,
    });
  });
  it("passes non-objects through", () => {
    expect(capInput(undefined, 4)).toEqual({ input: undefined, truncated: false });
    expect(capInput(7, 4)).toEqual({ input: 7, truncated: false });
  });
});
