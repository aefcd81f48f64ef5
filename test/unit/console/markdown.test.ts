import { describe, expect, it } from "vitest";
import {
  blockSources,
  parseInline,
  parseMarkdown,
  safeHref,
  type Block,
  type Inline,
} from "../../../console/markdown.js";
import { highlight } from "../../../console/highlight.js";

const text = (t: string): Inline => ({ type: "text", text: t });

describe("parseInline", () => {
  it.each<[string, Inline[]]>([
    ["plain", [text("plain")]],
    ["a **bold** word", [text("a "), { type: "strong", children: [text("bold")] }, text(" word")]],
    [
      "an *em* and _em_",
      [
        text("an "),
        { type: "em", children: [text("em")] },
        text(" and "),
        { type: "em", children: [text("em")] },
      ],
    ],
    ["snake_case_name stays", [text("snake_case_name stays")]],
    ["run `npm test` now", [text("run "), { type: "code", text: "npm test" }, text(" now")]],
    ["`**not bold**`", [{ type: "code", text: "**not bold**" }]],
    ["~~gone~~", [{ type: "del", children: [text("gone")] }]],
    [
      "see [the docs](https://example.com/a)",
      [text("see "), { type: "link", href: "https://example.com/a", children: [text("the docs")] }],
    ],
    [
      "<https://x.org>",
      [{ type: "link", href: "https://x.org", children: [text("https://x.org")] }],
    ],
    [
      "go to https://x.org/p.",
      [
        text("go to "),
        { type: "link", href: "https://x.org/p", children: [text("https://x.org/p")] },
        text("."),
      ],
    ],
    // A link to script is its text only: no `javascript:` href ever reaches the page.
    ["[click](javascript:alert(1))", [text("click)")]],
    ["\\*not em\\*", [text("*not em*")]],
    ["line  \nbreak", [text("line"), { type: "br" }, text("break")]],
    // HTML is text.
    ["<img src=x onerror=alert(1)>", [text("<img src=x onerror=alert(1)>")]],
  ])("%j", (source, inline) => {
    expect(parseInline(source)).toEqual(inline);
  });
});

describe("safeHref", () => {
  it.each([
    ["https://example.com", "https://example.com"],
    ["http://127.0.0.1:3008/", "http://127.0.0.1:3008/"],
    ["mailto:a@b.c", "mailto:a@b.c"],
    ["javascript:alert(1)", undefined],
    ["JAVASCRIPT:alert(1)", undefined],
    ["data:text/html,<script>", undefined],
    ["/relative", undefined],
  ])("%s → %s", (href, out) => {
    expect(safeHref(href)).toBe(out);
  });
});

describe("parseMarkdown", () => {
  it("reads headings, paragraphs, lists, code, quotes and rules", () => {
    const blocks = parseMarkdown(
      [
        "# Done",
        "",
        "I ran **3 tests**:",
        "",
        "- one",
        "- two",
        "  still two",
        "",
        "1. first",
        "2. second",
        "",
        "```ts",
        "const x = 1;",
        "```",
        "> quoted",
        "",
        "---",
      ].join("\n"),
    );
    expect(blocks.map((b) => b.type)).toEqual([
      "heading",
      "paragraph",
      "list",
      "list",
      "code",
      "quote",
      "hr",
    ]);
    const list = blocks[2] as Extract<Block, { type: "list" }>;
    expect(list.ordered).toBe(false);
    expect(list.items).toHaveLength(2);
    expect(list.items[1]).toEqual([{ type: "paragraph", inline: [text("two\nstill two")] }]);
    expect((blocks[3] as Extract<Block, { type: "list" }>).ordered).toBe(true);
    expect(blocks[4]).toEqual({ type: "code", lang: "ts", text: "const x = 1;" });
  });

  it("an open fence (an answer still streaming) is code so far", () => {
    expect(parseMarkdown("Here:\n```sh\nnpm te")).toEqual([
      { type: "paragraph", inline: [text("Here:")] },
      { type: "code", lang: "sh", text: "npm te" },
    ]);
  });

  it("a <script> is a paragraph of text", () => {
    expect(parseMarkdown("<script>alert(1)</script>")).toEqual([
      { type: "paragraph", inline: [text("<script>alert(1)</script>")] },
    ]);
  });

  it("blockSources splits as parseMarkdown does, so unchanged blocks can be reused", () => {
    const source = "a\n\n- b\n- c\n\n```\nd\n```\ne";
    expect(blockSources(source)).toEqual(["a", "- b\n- c", "```\nd\n```", "e"]);
    expect(blockSources(source).flatMap(parseMarkdown)).toEqual(parseMarkdown(source));
  });
});

describe("highlight", () => {
  it.each([
    ["ts", "const x = 'a'; // note", ["keyword:const", "string:'a'", "comment:// note"]],
    ["sh", 'echo "hi" # say it', ["keyword:echo", 'string:"hi"', "comment:# say it"]],
    ["py", "def f(): return 42", ["keyword:def", "keyword:return", "number:42"]],
    ["json", '{"a": 1}', ['string:"a"', "number:1"]],
  ])("%s %j", (lang, code, marked) => {
    const tokens = highlight(code, lang);
    expect(tokens.map((t) => t.text).join("")).toBe(code);
    expect(tokens.filter((t) => t.type !== "plain").map((t) => `${t.type}:${t.text}`)).toEqual(
      marked,
    );
  });
});
