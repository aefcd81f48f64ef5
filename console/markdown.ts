/**
 * Claude's answers as Markdown, by markdown-it (CommonMark with GFM tables and strikethrough),
 * set up for text that nobody vetted: no HTML (`html: false`: a `<script>` or an `onerror=` in an
 * answer is escaped text), links only to http(s) and mailto, no images (the page's CSP would
 * refuse them anyway), no guessed links (`README.md` is a file name, not a Moldovan site). The
 * HTML is sanitized again by DOMPurify where it goes into the page (markdown-view.ts).
 *
 * An answer is rendered block by block, each top-level block with its offset in the source: a
 * streamed answer grows at its end, which changes its last block at most, so only the text from
 * that block's start is parsed again. Pure: no DOM, unit-tested.
 */
import MarkdownIt from "markdown-it";
import type { Env, Token } from "markdown-it";
import { escapeHtml, highlightHtml } from "./highlight.js";

const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;

/** A link target the page may open: http(s) and mailto only (no `javascript:`, no `data:`). */
export const safeHref = (href: string): string | undefined =>
  SAFE_HREF.test(href.trim()) ? href.trim() : undefined;

const md = new MarkdownIt("default", { html: false, linkify: true, typographer: false });
// Bare URLs with their scheme become links; file names, hosts and addresses without one do not.
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
md.disable(["image"]);
// markdown-it asks this of every link, autolink and linkified URL: a refused one stays text.
md.validateLink = (url) => safeHref(url) !== undefined;

const rules = md.renderer.rules;

// Inside a task the page's own headings are h2/h3: an answer's start at h4.
const headingTag = (tag: string) => `h${Math.min(6, Number(tag.slice(1)) + 3)}`;
rules.heading_open = (tokens, i) => `<${headingTag(tokens[i]?.tag ?? "h1")} class="md-heading">`;
rules.heading_close = (tokens, i) => `</${headingTag(tokens[i]?.tag ?? "h1")}>\n`;

// A link opens in a new tab, without a referrer or a handle on this page.
rules.link_open = (tokens, i, options, _env, self) => {
  tokens[i]?.attrSet("target", "_blank");
  tokens[i]?.attrSet("rel", "noopener noreferrer nofollow");
  return self.renderToken(tokens, i, options);
};

/** A code block, highlighted; focusable, since a long line scrolls inside it. */
function codeBlock(lang: string, code: string): string {
  const text = code.replace(/\n$/, "");
  const data = lang === "" ? "" : ` data-lang="${escapeHtml(lang)}"`;
  return `<pre class="code-block"${data} tabindex="0"><code>${highlightHtml(text, lang)}</code></pre>\n`;
}
rules.fence = (tokens, i) => {
  const t = tokens[i];
  return codeBlock((t?.info.trim().split(/\s+/)[0] ?? "").toLowerCase(), t?.content ?? "");
};
rules.code_block = (tokens, i) => codeBlock("", tokens[i]?.content ?? "");

// A table scrolls in a focusable box of its own; a column's alignment is a class, since the
// page's CSP refuses inline styles.
rules.table_open = () => '<div class="md-table" tabindex="0"><table>\n';
rules.table_close = () => "</table></div>\n";
const cell: NonNullable<typeof rules.th_open> = (tokens, i, options, _env, self) => {
  const t = tokens[i];
  const align = /text-align:(\w+)/.exec(String(t?.attrGet("style") ?? ""))?.[1];
  if (t !== undefined && t.attrs !== null) {
    t.attrs = t.attrs.filter(([name]) => name !== "style");
    if (align !== undefined) t.attrJoin("class", `align-${align}`);
  }
  return self.renderToken(tokens, i, options);
};
rules.th_open = cell;
rules.td_open = cell;

/** One top-level block: where it starts in the source, and its HTML. */
export interface BlockHtml {
  readonly start: number;
  readonly html: string;
}

/**
 * The top-level blocks of `source` (line breaks `\n`; an answer as far as it has streamed: an
 * open fence is code so far), each rendered. `env` carries the link reference definitions read,
 * (`grow` needs to know whether there are any).
 */
export function renderBlocks(source: string, env: Env = {}): BlockHtml[] {
  const tokens = md.parse(source, env);
  const lineStarts = [0];
  for (let at = source.indexOf("\n"); at >= 0; at = source.indexOf("\n", at + 1))
    lineStarts.push(at + 1);
  const out: BlockHtml[] = [];
  for (let i = 0; i < tokens.length;) {
    const first = tokens[i] as Token;
    // A block is its opening token to the matching close (one token for a fence or a rule).
    let end = i;
    for (let depth = first.nesting; depth > 0;) depth += (tokens[++end] as Token).nesting;
    const html = md.renderer.render(tokens.slice(i, end + 1), md.options, env);
    out.push({ start: lineStarts[first.map?.[0] ?? 0] ?? 0, html });
    i = end + 1;
  }
  return out;
}

/** An answer as rendered: its source (line breaks `\n`), its blocks, the references read. */
export interface RenderedBlocks {
  readonly source: string;
  readonly blocks: readonly BlockHtml[];
  readonly env: Env;
}

const hasReferences = (env: Env): boolean => Object.keys(env.references ?? {}).length > 0;

/** `source` rendered at once. */
function whole(source: string): RenderedBlocks {
  const env: Env = {};
  return { source, blocks: renderBlocks(source, env), env };
}

/**
 * `source` rendered, from what `before` rendered: when the answer only grew, its blocks up to
 * the last one are kept and the text from that block's start on is parsed again (a block above
 * the last one ended where the next began: text added at the end cannot change it). A link
 * reference definition (`[d]: https://…`) can change any block above it: an answer that has one
 * is rendered whole each time (they are rare in answers).
 */
export function grow(before: RenderedBlocks | undefined, source: string): RenderedBlocks {
  if (before?.source === source) return before;
  const last = before?.blocks.at(-1);
  if (
    before === undefined ||
    last === undefined ||
    !source.startsWith(before.source) ||
    hasReferences(before.env)
  )
    return whole(source);
  const env: Env = {};
  const rest = renderBlocks(source.slice(last.start), env);
  if (hasReferences(env)) return whole(source);
  const blocks = [
    ...before.blocks.slice(0, -1),
    ...rest.map((b) => ({ start: b.start + last.start, html: b.html })),
  ];
  return { source, blocks, env };
}

/** The whole of `source` as HTML (the blocks joined). */
export const renderMarkdown = (source: string): string =>
  renderBlocks(source.replace(/\r\n?/g, "\n"))
    .map((b) => b.html)
    .join("");
