/**
 * The recorded sessions' normalisation (test/support/demo/transcripts.ts): what may differ, and
 * only that.
 */
import { describe, expect, it } from "vitest";
import { IdNumbering, normalise } from "../../support/demo/transcripts.js";

const norm = (text: string): string => {
  const ids = new IdNumbering();
  ids.see(text);
  return normalise(text, ids);
};

describe("normalise", () => {
  it.each([
    [
      "a commit and a branch suffix with letters",
      "committed 8e7afb6e0d42 on claude-a2a/b9e70bc6-d8a0-4d5e-9695-e07d73c138c5-d928aa862b",
    ],
    [
      "a commit and a branch suffix of digits only",
      "committed 161305261400 on claude-a2a/b9e70bc6-d8a0-4d5e-9695-e07d73c138c5-1613052614",
    ],
  ])("%s", (_why, line) => {
    expect(norm(line)).toBe("committed <hash> on claude-a2a/<id 0>-<hash>");
  });

  it("keeps plain numbers", () => {
    expect(norm("[completed] $0.00066 · 20 in, 40 out tokens (28 bytes, 1613052614)")).toBe(
      "[completed] $0.00066 · 20 in, 40 out tokens (28 bytes, 1613052614)",
    );
  });
});
