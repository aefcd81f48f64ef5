/**
 * Claude's answers as Markdown: a small parser of the CommonMark subset answers use (headings,
 * paragraphs, emphasis, code spans and fenced blocks, lists, quotes, rules, links) into a tree
 * that `markdown-view.ts` builds DOM nodes from. Nothing is ever parsed as HTML: a `<script>` or
 * an `onerror=` in an answer is text, by construction, so no sanitizer is needed (and the page's
 * CSP forbids inline script besides). Pure: no DOM, unit-tested.
 */

export type Inline =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "code"; readonly text: string }
  | { readonly type: "strong" | "em" | "del"; readonly children: Inline[] }
  | { readonly type: "link"; readonly href: string; readonly children: Inline[] }
  | { readonly type: "br" };

export type Block =
  | { readonly type: "heading"; readonly level: number; readonly inline: Inline[] }
  | { readonly type: "paragraph"; readonly inline: Inline[] }
  | { readonly type: "code"; readonly lang: string; readonly text: string }
  | {
      readonly type: "list";
      readonly ordered: boolean;
      readonly start: number;
      readonly items: Block[][];
    }
  | { readonly type: "quote"; readonly blocks: Block[] }
  | { readonly type: "hr" };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** "ordered" or "bullet" for a top-level list item line, undefined for any other line. */
function listKind(line: string): "ordered" | "bullet" | undefined {
  const m = ITEM.exec(line);
  if (m === null || (m[1]?.length ?? 0) > 1) return undefined;
  return /\d/.test(m[2] ?? "") ? "ordered" : "bullet";
}

const startsBlock = (line: string): boolean =>
  FENCE.test(line) || HEADING.test(line) || RULE.test(line) || ITEM.test(line) || QUOTE.test(line);

/** The blocks of `source` (an answer as far as it has streamed: an open fence is code so far). */
export function parseMarkdown(source: string): Block[] {
  return blocksOf(source.replace(/\r\n?/g, "\n").split("\n"));
}

/** The source text of each top-level block, to reuse the nodes of blocks that did not change. */
export function blockSources(source: string): string[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  walk(lines, (start, end) => out.push(lines.slice(start, end).join("\n")));
  return out;
}

/**
 * Each top-level block's source and its offset in `source` (its line breaks already `\n`): a
 * streamed answer grows at its end, which changes its last block at most, so only the text from
 * that block's start needs walking again.
 */
export function blockSpans(source: string): { start: number; text: string }[] {
  const lines = source.split("\n");
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  const out: { start: number; text: string }[] = [];
  walk(lines, (start, end) =>
    out.push({ start: offsets[start] ?? 0, text: lines.slice(start, end).join("\n") }),
  );
  return out;
}

function blocksOf(lines: string[]): Block[] {
  const out: Block[] = [];
  walk(lines, (start, end) => {
    const b = blockOf(lines.slice(start, end));
    if (b !== undefined) out.push(b);
  });
  return out;
}

/** Calls `each(start, end)` for the line range of every block. */
function walk(lines: readonly string[], each: (start: number, end: number) => void): void {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      i++;
      continue;
    }
    const start = i;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      const mark = fence[1] ?? "```";
      i++;
      while (i < lines.length && !(lines[i] ?? "").trim().startsWith(mark)) i++;
      i = Math.min(lines.length, i + 1);
    } else if (HEADING.test(line) || RULE.test(line)) {
      i++;
    } else if (ITEM.test(line)) {
      const kind = listKind(line);
      i++;
      // An item goes on over indented lines, blank lines followed by more of the list, and lazy
      // continuation lines.
      while (i < lines.length) {
        const next = lines[i] ?? "";
        if (/^\s{2,}\S/.test(next) || listKind(next) === kind) i++;
        else if (
          next.trim() === "" &&
          (/^\s{2,}\S/.test(lines[i + 1] ?? "") || listKind(lines[i + 1] ?? "") === kind)
        )
          i++;
        else if (next.trim() !== "" && !startsBlock(next) && (lines[i - 1] ?? "").trim() !== "")
          i++;
        else break;
      }
    } else if (QUOTE.test(line)) {
      while (i < lines.length && QUOTE.test(lines[i] ?? "")) i++;
    } else {
      while (i < lines.length && (lines[i] ?? "").trim() !== "" && !startsBlock(lines[i] ?? ""))
        i++;
    }
    each(start, i);
  }
}

function blockOf(lines: string[]): Block | undefined {
  const first = lines[0] ?? "";
  const fence = FENCE.exec(first);
  if (fence !== null) {
    const mark = fence[1] ?? "```";
    const body = lines.slice(1);
    if (body.length > 0 && (body.at(-1) ?? "").trim().startsWith(mark)) body.pop();
    return { type: "code", lang: (fence[2] ?? "").toLowerCase(), text: body.join("\n") };
  }
  const heading = HEADING.exec(first);
  if (heading !== null)
    return {
      type: "heading",
      level: heading[1]?.length ?? 1,
      inline: parseInline(heading[2] ?? ""),
    };
  if (RULE.test(first)) return { type: "hr" };
  if (ITEM.test(first)) return listOf(lines);
  if (QUOTE.test(first))
    return { type: "quote", blocks: blocksOf(lines.map((l) => QUOTE.exec(l)?.[1] ?? l)) };
  return { type: "paragraph", inline: parseInline(lines.map((l) => l.trim()).join("\n")) };
}

function listOf(lines: string[]): Block {
  const head = ITEM.exec(lines[0] ?? "");
  const ordered = /\d/.test(head?.[2] ?? "");
  const indent = head?.[1]?.length ?? 0;
  const items: string[][] = [];
  for (const line of lines) {
    const m = ITEM.exec(line);
    if (m !== null && (m[1]?.length ?? 0) <= indent) items.push([m[3] ?? ""]);
    else items.at(-1)?.push(line.replace(/^ {1,4}/, ""));
  }
  return {
    type: "list",
    ordered,
    start: ordered ? Number.parseInt(head?.[2] ?? "1", 10) : 1,
    items: items.map((item) => blocksOf(item)),
  };
}

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** A link target the page may open: http(s) and mailto only (no `javascript:`, no `data:`). */
export const safeHref = (href: string): string | undefined =>
  SAFE_HREF.test(href.trim()) ? href.trim() : undefined;

// One pass, leftmost match first: code spans, links, autolinks, emphasis, hard breaks.
const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)|<(https?:\/\/[^\s>]+)>|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])|(\*\*|__)(?=\S)([\s\S]*?\S)\7|(\*|_)(?=\S)([\s\S]*?\S)\9(?![\w*])|~~(?=\S)([\s\S]*?\S)~~|( {2,}|\\)\n|\\([\\`*_{}[\]()#+\-.!~<>|])/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  const pushText = (t: string) => {
    if (t === "") return;
    const prev = out.at(-1);
    if (prev?.type === "text") out[out.length - 1] = { type: "text", text: prev.text + t };
    else out.push({ type: "text", text: t });
  };
  for (const m of text.matchAll(INLINE)) {
    const at = m.index;
    // `_` inside a word (snake_case) is no emphasis.
    if (m[9] === "_" && at > 0 && /\w/.test(text[at - 1] ?? "")) continue;
    pushText(text.slice(last, at));
    last = at + m[0].length;
    if (m[1] !== undefined)
      out.push({ type: "code", text: (m[2] ?? "").replace(/^ (.*) $/, "$1") });
    else if (m[3] !== undefined) {
      const href = safeHref(m[4] ?? "");
      const children = parseInline(m[3]);
      if (href === undefined) out.push(...children);
      else out.push({ type: "link", href, children });
    } else if (m[5] !== undefined || m[6] !== undefined) {
      const url = m[5] ?? m[6] ?? "";
      out.push({ type: "link", href: url, children: [{ type: "text", text: url }] });
    } else if (m[7] !== undefined) out.push({ type: "strong", children: parseInline(m[8] ?? "") });
    else if (m[9] !== undefined) out.push({ type: "em", children: parseInline(m[10] ?? "") });
    else if (m[11] !== undefined) out.push({ type: "del", children: parseInline(m[11]) });
    else if (m[13] !== undefined) pushText(m[13]);
    else out.push({ type: "br" });
  }
  pushText(text.slice(last));
  return out;
}
