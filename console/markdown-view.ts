/**
 * Claude's answer as DOM nodes, from `markdown.ts`'s tree: every piece of text is a text node,
 * never HTML, and a link opens in a new tab without a referrer or a handle on this page. A
 * streamed answer re-renders only its last block: the blocks above it keep their nodes (no
 * flicker, and a long answer stays cheap to grow).
 */
import { h } from "./dom.js";
import { highlight } from "./highlight.js";
import { blockSources, parseMarkdown, type Block, type Inline } from "./markdown.js";

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

// Rendered blocks by their source, per answer: a re-render reuses every unchanged block's node.
const cache = new Map<string, Map<string, HTMLElement>>();

/** The answer `source` as a `.markdown` element; `key` names the answer across re-renders. */
export function markdownView(
  source: string,
  key: string,
  attrs: Record<string, string> = {},
): HTMLElement {
  const before = cache.get(key) ?? new Map<string, HTMLElement>();
  const after = new Map<string, HTMLElement>();
  const nodes = blockSources(source).map((src) => {
    let node = before.get(src) ?? after.get(src);
    if (node === undefined || after.has(src)) {
      const [block] = parseMarkdown(src);
      node = block === undefined ? h("p") : blockNode(block);
    }
    after.set(src, node);
    return node;
  });
  cache.set(key, after);
  return h("div", { class: "markdown", ...attrs }, nodes);
}
