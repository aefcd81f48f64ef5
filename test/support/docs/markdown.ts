/**
 * Just enough of Markdown to check the docs' links: the anchors GitHub gives a page's headings,
 * and the links a page makes, both outside fenced code blocks and code spans. Pure.
 */

/** The lines of a page that are prose, with fenced code blocks blanked (line numbers kept). */
export function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
      return "";
    }
    if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
      fence = undefined;
    }
    return "";
  });
}

/** A heading's text as GitHub renders it: code spans, emphasis and links reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__|\*|_)(.+?)\1/g, "$2")
    .trim();
}

/** GitHub's anchor for a heading text (github-slugger): lowercase, punctuation out, spaces to -. */
export function slug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_ -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a page: its headings' slugs (a repeated one gets -1, -2, …) and HTML ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1] ?? "");
  }
  return out;
}

export interface Link {
  /** 1-based line of the page. */
  line: number;
  target: string;
}

/** Every inline link and image of a page, and every reference definition, outside code. */
export function links(markdown: string): Link[] {
  const out: Link[] = [];
  proseLines(markdown).forEach((line, i) => {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, "");
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ line: i + 1, target: m[1] ?? "" });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose)?.[1];
    if (definition !== undefined) out.push({ line: i + 1, target: definition });
  });
  return out;
}

/** Whether a link leaves the repository (a URL with a scheme, or protocol-relative). */
export const isExternal = (target: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
