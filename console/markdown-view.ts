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

/** An element for `fragment`'s content: its one element, or a div holding what it has. */
function elementOf(parent: ParentNode): HTMLElement {
  const elements = [...parent.children];
  const only = elements[0];
  return elements.length === 1 && only instanceof HTMLElement
    ? only
    : h("div", {}, [...parent.childNodes]);
}

/**
 * The blocks' elements, from their HTML, sanitized in one pass: DOMPurify parses a document per
 * call, and a frame of a fast stream on a busy machine can bring dozens of new blocks. Each
 * block goes in a `div` of its own, to be told apart after; should the count not match (it
 * cannot with markdown-it's well-formed HTML), each is sanitized alone.
 */
function blockNodes(htmls: readonly string[]): HTMLElement[] {
  if (htmls.length === 0) return [];
  const together = DOMPurify.sanitize(htmls.map((html) => `<div>${html}</div>`).join(""), PURIFY);
  const wrappers = [...together.children];
  if (wrappers.length === htmls.length) return wrappers.map(elementOf);
  return htmls.map((html) => elementOf(DOMPurify.sanitize(html, PURIFY)));
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
  // The blocks that need a node: new ones, and a block that is there twice (its own node).
  const reused = new Set<string>();
  const wanted: string[] = [];
  for (const { html } of rendered.blocks) {
    if (!reused.has(html) && before?.nodes.has(html) === true) reused.add(html);
    else wanted.push(html);
  }
  const built = blockNodes(wanted);
  const after = new Map<string, HTMLElement>();
  let next = 0;
  const nodes = rendered.blocks.map(({ html }) => {
    const kept = reused.has(html) && !after.has(html) ? before?.nodes.get(html) : undefined;
    const node = kept ?? keyed(built[next++] ?? h("p"), html);
    if (!after.has(html)) after.set(html, node);
    return node;
  });
  cache.set(key, { ...rendered, nodes: after });
  return h("div", { class: "markdown", ...attrs }, nodes);
}
