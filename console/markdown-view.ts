/**
 * Claude's answer as DOM nodes, from `markdown.ts`'s tree: every piece of text is a text node,
 * never HTML, and a link opens in a new tab without a referrer or a handle on this page. A
 * streamed answer re-renders only its last block: the blocks above it keep their nodes in the
 * page (no flicker, and a long answer stays cheap to grow: the work per render is the new text).
 */
import { h } from "./dom.js";
import { highlight } from "./highlight.js";
import { keyed } from "./dom-patch.js";
import { blockSpans, parseMarkdown, type Block, type Inline } from "./markdown.js";

function inlineNodes(inline: readonly Inline[]): (Node | string)[] {
  return inline.map((i) => {
    switch (i.type) {
      case "text":
        return i.text;
      case "code":
        return h("code", {}, i.text);
      case "strong":
        return h("strong", {}, inlineNodes(i.children));
      case "em":
        return h("em", {}, inlineNodes(i.children));
      case "del":
        return h("del", {}, inlineNodes(i.children));
      case "link":
        return h(
          "a",
          { href: i.href, target: "_blank", rel: "noopener noreferrer nofollow" },
          inlineNodes(i.children),
        );
      case "br":
        return h("br");
    }
  });
}

function codeBlock(lang: string, text: string): HTMLElement {
  const tokens = highlight(text, lang);
  return h(
    "pre",
    { class: "code-block", "data-lang": lang || undefined, tabindex: 0 },
    h(
      "code",
      {},
      tokens.map((t) =>
        t.type === "plain" ? t.text : h("span", { class: `tok-${t.type}` }, t.text),
      ),
    ),
  );
}

function blockNode(b: Block): HTMLElement {
  switch (b.type) {
    case "heading":
      // Inside a task the page's own headings are h2/h3: an answer's start at h4.
      return h(
        `h${Math.min(6, b.level + 3)}` as "h4",
        { class: "md-heading" },
        inlineNodes(b.inline),
      );
    case "paragraph":
      return h("p", {}, inlineNodes(b.inline));
    case "code":
      return codeBlock(b.lang, b.text);
    case "list": {
      const items = b.items.map((blocks) =>
        h(
          "li",
          {},
          // A tight item's one paragraph is shown as its text.
          blocks.length === 1 && blocks[0]?.type === "paragraph"
            ? inlineNodes(blocks[0].inline)
            : blocks.map(blockNode),
        ),
      );
      return b.ordered
        ? h("ol", { start: b.start === 1 ? undefined : b.start }, items)
        : h("ul", {}, items);
    }
    case "quote":
      return h("blockquote", {}, b.blocks.map(blockNode));
    case "hr":
      return h("hr");
  }
}

interface Rendered {
  /** The answer as last rendered (line breaks `\n`). */
  readonly source: string;
  readonly spans: readonly { start: number; text: string }[];
  /** Each block's node, by its source: a template (dom-patch.ts `keyed`), never in the page. */
  readonly nodes: ReadonlyMap<string, HTMLElement>;
}

// Per answer: a re-render walks only the text from the last block on when the answer grew, and
// builds only the blocks that changed; the patch leaves the page's copies of the others alone.
const cache = new Map<string, Rendered>();

function blockTemplate(src: string): HTMLElement {
  const [block] = parseMarkdown(src);
  return keyed(block === undefined ? h("p") : blockNode(block), src);
}

/** The answer `source` as a `.markdown` element; `key` names the answer across re-renders. */
export function markdownView(
  source: string,
  key: string,
  attrs: Record<string, string> = {},
): HTMLElement {
  const text = source.replace(/\r\n?/g, "\n");
  const before = cache.get(key);
  const last = before?.spans.at(-1);
  const spans =
    before !== undefined && last !== undefined && text.startsWith(before.source)
      ? [
          ...before.spans.slice(0, -1),
          ...blockSpans(text.slice(last.start)).map((s) => ({ ...s, start: s.start + last.start })),
        ]
      : blockSpans(text);
  const after = new Map<string, HTMLElement>();
  const nodes = spans.map(({ text: src }) => {
    // The same block twice in one answer: the second is a node of its own.
    if (after.has(src)) return blockTemplate(src);
    const node = before?.nodes.get(src) ?? blockTemplate(src);
    after.set(src, node);
    return node;
  });
  cache.set(key, { source: text, spans, nodes: after });
  return h("div", { class: "markdown", ...attrs }, nodes);
}
