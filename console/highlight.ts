/**
 * Syntax highlighting of a code block, by highlight.js: its core and the grammars of the languages
 * answers use most, each registered here (the whole library would cost the page ~900 KiB; these
 * cost ~35). A block in any other language, or in none, is shown as plain text: no guessing,
 * which would cost every grammar's pass over each streamed block. Pure: the result is HTML whose
 * text is escaped by highlight.js (and sanitized again where it goes into the page).
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const GRAMMARS = {
  bash,
  diff,
  dockerfile,
  go,
  ini,
  java,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);
// TypeScript's grammar reads JavaScript as well (one grammar, not two in the page); TOML is INI's.
hljs.registerAliases(["javascript", "js", "jsx", "mjs", "cjs"], { languageName: "typescript" });
hljs.registerAliases(["toml"], { languageName: "ini" });

/** Whether `lang` (a fence's info word, any case) is one the page highlights. */
export const knownLanguage = (lang: string): boolean =>
  lang !== "" && hljs.getLanguage(lang.toLowerCase()) !== undefined;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * `code` as HTML: spans with highlight.js's `hljs-*` classes around keywords, strings, comments,
 * numbers and the like in a known `lang`; escaped text otherwise. The text is never changed.
 */
export function highlightHtml(code: string, lang: string): string {
  if (!knownLanguage(lang)) return escapeHtml(code);
  return hljs.highlight(code, { language: lang.toLowerCase(), ignoreIllegals: true }).value;
}
