import { describe, expect, it } from "vitest";
import { frontmatter } from "../../../../src/a2a/card/frontmatter.js";

const doc = (...lines: string[]) => ["---", ...lines, "---", "", "The prompt."].join("\n");

describe("frontmatter", () => {
  it.each<[string, string, Record<string, string>]>([
    [
      "plain values",
      doc("name: reviewer", "description: Reviews code"),
      { name: "reviewer", description: "Reviews code" },
    ],
    [
      "double-quoted, with escapes",
      doc('description: "Say \\"hi\\": twice"'),
      { description: 'Say "hi": twice' },
    ],
    [
      "single-quoted",
      doc("description: 'It''s fine # not a comment'"),
      { description: "It's fine # not a comment" },
    ],
    ["a trailing comment", doc("description: Runs tests # quickly"), { description: "Runs tests" }],
    [
      "a plain value over lines",
      doc("description: Runs the", "  whole suite"),
      { description: "Runs the whole suite" },
    ],
    [
      "a folded block",
      doc("description: >", "  Folded", "  text", "", "  again"),
      { description: "Folded text\nagain" },
    ],
    [
      "a literal block",
      doc("description: |-", "  line 1", "  line 2"),
      { description: "line 1\nline 2" },
    ],
    [
      "lists and maps skipped",
      doc("tools:", "  - Read", "  - Grep", "description: d", "x: [a, b]", "m: {a: 1}"),
      { description: "d" },
    ],
    ["an empty value", doc("description:", "name: n"), { description: "", name: "n" }],
    ["CRLF and a BOM", "\uFEFF---\r\ndescription: Windows\r\n---\r\n", { description: "Windows" }],
    ["no frontmatter", "# Title\ndescription: not frontmatter", {}],
    ["an unclosed block", "---\ndescription: x\n", {}],
    ["a broken quote", doc('description: "unterminated'), {}],
  ])("%s", (_label, text, expected) => {
    expect(frontmatter(text)).toEqual(expected);
  });
});
