/**
 * Claude's answer as DOM nodes: markdown-it's HTML (markdown.ts), sanitized by DOMPurify with an
 * allow-list of the elements and attributes that HTML uses, so nothing from an answer can run
 * even if the parser let something through; a link opens in a new tab without a referrer or a
 * handle on this page. A streamed answer re-renders only its last block: the blocks above it
 * keep their nodes in the page (no flicker, and a long answer stays cheap to grow: the work per
 * render is the new text).
 */
import DOMPurify, { type Config } from "dompurify";
import { h } from "./dom.js";
import { keyed } from "./dom-patch.js";
import { grow, safeHref, type RenderedBlocks } from "./markdown.js";

const PURIFY: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [
    "p",
    "h4",
    "h5",
    "h6",
    "strong",
    "em",
    "s",
    "del",
    "code",
    "pre",
    "span",
    "a",
    "ul",
    "ol",
    "li",
    "blockquote",
    "hr",
    "br",
    "div",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  ALLOWED_ATTR: ["href", "title", "target", "rel", "class", "start", "tabindex", "data-lang"],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:\/\/|mailto:)/i,
  RETURN_DOM_FRAGMENT: true,
};

// Every link that survives: a safe target, opened apart from this page.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A") return;
  const href = safeHref(node.getAttribute("href") ?? "");
  if (href === undefined) node.removeAttribute("href");
  node.setAttribute("target", "_blank");
  node.setAttribute("rel", "noopener noreferrer nofollow");
});

/** One block's element, from its HTML, sanitized. */
function blockNode(html: string): HTMLElement {
  const fragment = DOMPurify.sanitize(html, PURIFY);
  const elements = [...fragment.children];
  const only = elements[0];
  return elements.length === 1 && only instanceof HTMLElement
    ? only
    : h("div", {}, [...fragment.childNodes]);
}

interface Rendered extends RenderedBlocks {
  /** Each block's node, by its HTML: a template (dom-patch.ts `keyed`), never in the page. */
  readonly nodes: ReadonlyMap<string, HTMLElement>;
}

// Per answer: a re-render parses only the text from the last block on when the answer grew, and
// builds only the blocks that changed; the patch leaves the page's copies of the others alone.
const cache = new Map<string, Rendered>();

/** The answer `source` as a `.markdown` element; `key` names the answer across re-renders. */
export function markdownView(
  source: string,
  key: string,
  attrs: Record<string, string> = {},
): HTMLElement {
  const before = cache.get(key);
  const rendered = grow(before, source.replace(/\r\n?/g, "\n"));
  const after = new Map<string, HTMLElement>();
  const nodes = rendered.blocks.map(({ html }) => {
    // The same block twice in one answer: the second is a node of its own.
    if (after.has(html)) return keyed(blockNode(html), html);
    const node = before?.nodes.get(html) ?? keyed(blockNode(html), html);
    after.set(html, node);
    return node;
  });
  cache.set(key, { ...rendered, nodes: after });
  return h("div", { class: "markdown", ...attrs }, nodes);
}
