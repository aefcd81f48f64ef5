import { describe, expect, it } from "vitest";
import { grow, renderBlocks, renderMarkdown, safeHref } from "../../../console/markdown.js";
import { highlightHtml, knownLanguage } from "../../../console/highlight.js";

const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';

describe("renderMarkdown: inline", () => {
  it.each<[string, string]>([
    ["plain", "<p>plain</p>"],
    ["a **bold** word", "<p>a <strong>bold</strong> word</p>"],
    ["an *em* and _em_", "<p>an <em>em</em> and <em>em</em></p>"],
    ["snake_case_name stays", "<p>snake_case_name stays</p>"],
    ["run `npm test` now", "<p>run <code>npm test</code> now</p>"],
    ["`**not bold**`", "<p><code>**not bold**</code></p>"],
    ["~~gone~~", "<p><s>gone</s></p>"],
    [
      "see [the docs](https://example.com/a)",
      `<p>see <a href="https://example.com/a" ${LINK}>the docs</a></p>`,
    ],
    // A target with parentheses (the hand-written parser cut it at the first ")").
    [
      "[wiki](https://en.wikipedia.org/wiki/Foo_(bar))",
      `<p><a href="https://en.wikipedia.org/wiki/Foo_(bar)" ${LINK}>wiki</a></p>`,
    ],
    ["<https://x.org>", `<p><a href="https://x.org" ${LINK}>https://x.org</a></p>`],
    [
      "go to https://x.org/p.",
      `<p>go to <a href="https://x.org/p" ${LINK}>https://x.org/p</a>.</p>`,
    ],
    ["mail <mailto:a@b.c>", `<p>mail <a href="mailto:a@b.c" ${LINK}>mailto:a@b.c</a></p>`],
    // File names and bare hosts are not guessed into links.
    ["see README.md and example.com", "<p>see README.md and example.com</p>"],
    ["\\*not em\\*", "<p>*not em*</p>"],
    ["line  \nbreak", "<p>line<br>\nbreak</p>"],
    // No images: the page's CSP refuses them; the alt text links to the target instead.
    ["![logo](https://x.org/l.png)", `<p>!<a href="https://x.org/l.png" ${LINK}>logo</a></p>`],
  ])("%j", (source, html) => {
    expect(renderMarkdown(source).trim()).toBe(html);
  });
});

describe("renderMarkdown: hostile input is text", () => {
  it.each<[string, string]>([
    // A link to script is no link: its source stays text.
    ["[click](javascript:alert(1))", "<p>[click](javascript:alert(1))</p>"],
    ["[click](JAVASCRIPT:alert(1))", "<p>[click](JAVASCRIPT:alert(1))</p>"],
    [
      "[x](data:text/html,<script>alert(1)</script>)",
      "<p>[x](data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;)</p>",
    ],
    ["<javascript:alert(1)>", "<p>&lt;javascript:alert(1)&gt;</p>"],
    ["[x](/relative/path)", "<p>[x](/relative/path)</p>"],
    // HTML, inline or as a block, is escaped.
    ["<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>"],
    ["<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    [
      'a <a href="javascript:alert(1)">b</a>',
      "<p>a &lt;a href=&quot;javascript:alert(1)&quot;&gt;b&lt;/a&gt;</p>",
    ],
    // A fence's info string cannot break out of its attribute.
    [
      '```"><img src=x onerror=alert(1)>\nx\n```',
      '<pre class="code-block" data-lang="&quot;&gt;&lt;img" tabindex="0"><code>x</code></pre>',
    ],
  ])("%j", (source, html) => {
    const out = renderMarkdown(source).trim();
    expect(out).toBe(html);
    // No such element, and no tag with a handler or a script link.
    expect(out).not.toMatch(/<(script|img)\b|<[^>]*\son\w+=|<[^>]*href="javascript:/i);
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

describe("renderBlocks", () => {
  it("reads headings (from h4: the page's own are h2/h3), paragraphs, lists, code, quotes, rules and tables", () => {
    const source = [
      "# Done",
      "",
      "I ran **3 tests**:",
      "",
      "- one",
      "- two",
      "  still two",
      "",
      "3. third",
      "4. fourth",
      "",
      "```ts",
      "const x = 1;",
      "```",
      "> quoted",
      "",
      "---",
      "",
      "| name | n |",
      "| :--- | --: |",
      "| a | 1 |",
    ].join("\n");
    const blocks = renderBlocks(source);
    expect(blocks.map((b) => /^<(\w+)/.exec(b.html)?.[1])).toEqual([
      "h4",
      "p",
      "ul",
      "ol",
      "pre",
      "blockquote",
      "hr",
      "div",
    ]);
    // Each block's offset in the source: where re-rendering a grown answer starts.
    expect(blocks.map((b) => source.slice(b.start).split("\n")[0])).toEqual([
      "# Done",
      "I ran **3 tests**:",
      "- one",
      "3. third",
      "```ts",
      "> quoted",
      "---",
      "| name | n |",
    ]);
    expect(blocks[0]?.html).toBe('<h4 class="md-heading">Done</h4>\n');
    expect(blocks[2]?.html).toBe("<ul>\n<li>one</li>\n<li>two\nstill two</li>\n</ul>\n");
    expect(blocks[3]?.html).toContain('<ol start="3">');
    expect(blocks[4]?.html).toBe(
      '<pre class="code-block" data-lang="ts" tabindex="0"><code><span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;</code></pre>\n',
    );
    // Alignment is a class: the page's CSP refuses inline styles.
    expect(blocks[7]?.html).toContain('<th class="align-left">name</th>');
    expect(blocks[7]?.html).toContain('<td class="align-right">1</td>');
    expect(blocks[7]?.html).not.toContain("style=");
  });

  it("an open fence (an answer still streaming) is code so far", () => {
    expect(renderBlocks("Here:\n```sh\nnpm te").map((b) => b.html)).toEqual([
      "<p>Here:</p>\n",
      '<pre class="code-block" data-lang="sh" tabindex="0"><code>npm te</code></pre>\n',
    ]);
  });

  it("a link reference defined further down is used", () => {
    expect(renderMarkdown("See [the docs][d].\n\n[d]: https://example.com/d")).toBe(
      `<p>See <a href="https://example.com/d" ${LINK}>the docs</a>.</p>\n`,
    );
  });
});

describe("grow: a streamed answer re-renders from its last block only", () => {
  const ANSWER = [
    "## Plan",
    "",
    "I will **change** `a.ts`, see [the docs][d]:",
    "",
    "- read it",
    "- edit it",
    "",
    "[d]: https://example.com/d",
    "",
    "```ts",
    "const a = 1; // one",
    "```",
    "",
    "| a | b |",
    "| - | - |",
    "| 1 | 2 |",
    "",
    "> Done, and [the docs][d] say so.",
  ].join("\n");

  const WITHOUT_REFERENCES = ANSWER.replace(/\[d\]: .*\n/, "").replace(/\[d\]/g, "");

  it.each([
    ["with a link reference", ANSWER],
    ["without one", WITHOUT_REFERENCES],
  ])("at every length, as the whole answer rendered at once (%s)", (_, answer) => {
    let r = grow(undefined, "");
    for (let n = 1; n <= answer.length; n++) {
      r = grow(r, answer.slice(0, n));
      expect(r.blocks.map((b) => b.html)).toEqual(
        renderBlocks(answer.slice(0, n)).map((b) => b.html),
      );
    }
  });

  it("keeps the blocks above the last one as they were; a changed answer is rendered anew", () => {
    const first = grow(undefined, "One.\n\nTwo.\n\nThr");
    const next = grow(first, "One.\n\nTwo.\n\nThree.");
    expect(next.blocks[0]).toBe(first.blocks[0]);
    expect(next.blocks[1]).toBe(first.blocks[1]);
    expect(next.blocks[2]?.html).toBe("<p>Three.</p>\n");
    expect(grow(next, next.source)).toBe(next);
    const other = grow(next, "Else.");
    expect(other.blocks.map((b) => b.html)).toEqual(["<p>Else.</p>\n"]);
  });
});

describe("highlightHtml", () => {
  const unescape = (html: string) =>
    html
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&amp;/g, "&");
  const marked = (html: string) =>
    [...html.matchAll(/<span class="hljs-([^"]+)">([^<]*)<\/span>/g)]
      .filter((m) => m[1] !== "punctuation")
      .map((m) => `${m[1]}:${unescape(m[2] ?? "")}`);

  it.each([
    ["ts", "const x = 'a'; // note", ["keyword:const", "string:'a'", "comment:// note"]],
    ["js", "let n = 2;", ["keyword:let", "number:2"]],
    ["sh", 'echo "hi" # say it', ["built_in:echo", 'string:"hi"', "comment:# say it"]],
    [
      "py",
      "def f(): return 42",
      ["keyword:def", "title function_:f", "keyword:return", "number:42"],
    ],
    ["json", '{"a": 1}', ['attr:"a"', "number:1"]],
  ])("%s %j", (lang, code, expected) => {
    const html = highlightHtml(code, lang);
    expect(unescape(html)).toBe(code);
    expect(marked(html)).toEqual(expected);
  });

  it("a language it does not know, or none, is escaped text", () => {
    expect(knownLanguage("cobol")).toBe(false);
    expect(knownLanguage("TypeScript")).toBe(true);
    expect(highlightHtml("<b>x</b> & y", "cobol")).toBe("&lt;b&gt;x&lt;/b&gt; &amp; y");
    expect(highlightHtml("<b>", "")).toBe("&lt;b&gt;");
  });
});
