import { describe, expect, it } from "vitest";
import { diffStat, lineDiff, parseUnifiedDiff, withContext } from "../../../console/diff.js";

describe("lineDiff", () => {
  it("shows a created file as all added", () => {
    expect(lineDiff(undefined, "a\nb\n")).toEqual([
      { op: "add", text: "a" },
      { op: "add", text: "b" },
    ]);
  });

  it("keeps common lines and marks the changed ones", () => {
    expect(lineDiff("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { op: "same", text: "a" },
      { op: "del", text: "b" },
      { op: "add", text: "B" },
      { op: "same", text: "c" },
      { op: "add", text: "d" },
    ]);
  });

  it("finds an insertion in the middle of a long file", () => {
    const before = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const after = [...before.slice(0, 20), "new", ...before.slice(20)];
    const lines = lineDiff(before.join("\n"), after.join("\n"));
    expect(diffStat(lines)).toEqual({ added: 1, removed: 0 });
    expect(lines[20]).toEqual({ op: "add", text: "new" });
  });

  it("an unchanged file has no change", () => {
    expect(diffStat(lineDiff("x\ny", "x\ny"))).toEqual({ added: 0, removed: 0 });
  });
});

describe("withContext", () => {
  it("folds unchanged runs far from a change into one line", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = before.map((l, i) => (i === 10 ? "changed" : l));
    const shown = withContext(lineDiff(before.join("\n"), after.join("\n")), 2);
    expect(shown.map((l) => l.op)).toEqual([
      "hunk",
      "same",
      "same",
      "del",
      "add",
      "same",
      "same",
      "hunk",
    ]);
    expect(shown[0]).toEqual({ op: "hunk", text: "… 8 unchanged line(s)" });
  });
});

describe("parseUnifiedDiff", () => {
  it("reads headers, hunks, added, removed and kept lines", () => {
    const diff = [
      "diff --git a/x.txt b/x.txt",
      "--- a/x.txt",
      "+++ b/x.txt",
      "@@ -1,2 +1,2 @@",
      " keep",
      "-old",
      "+new",
    ].join("\n");
    expect(parseUnifiedDiff(diff).map((l) => [l.op, l.text])).toEqual([
      ["file", "diff --git a/x.txt b/x.txt"],
      ["file", "--- a/x.txt"],
      ["file", "+++ b/x.txt"],
      ["hunk", "@@ -1,2 +1,2 @@"],
      ["same", "keep"],
      ["del", "old"],
      ["add", "new"],
    ]);
  });
});
