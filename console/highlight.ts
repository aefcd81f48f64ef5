/**
 * Syntax highlighting of a code block: a tokenizer that tells comments, strings, numbers and
 * keywords apart in the languages answers use most (TypeScript/JavaScript, Python, shell, JSON,
 * Go, Rust, …), so a block reads like it does in an editor. It never changes the text: the tokens
 * join back to it exactly. Pure.
 */

export type TokenType = "plain" | "comment" | "string" | "number" | "keyword";
export interface Token {
  readonly type: TokenType;
  readonly text: string;
}

const KEYWORDS = new Set(
  (
    "as async await break case catch class const continue def default delete do elif else enum " +
    "export extends false finally fn for from func function go if impl implements import in " +
    "instanceof interface let loop match mod mut new nil none null package pass pub raise return " +
    "self static struct super switch then this throw true try type typeof undefined use var " +
    "void while with yield fi done esac echo local readonly True False None lambda not and or is"
  ).split(" "),
);

const HASH_COMMENTS = new Set([
  "",
  "sh",
  "bash",
  "shell",
  "zsh",
  "python",
  "py",
  "ruby",
  "rb",
  "yaml",
  "yml",
  "toml",
  "dockerfile",
  "make",
  "makefile",
  "r",
  "perl",
]);
const SLASH_COMMENTS = new Set([
  "",
  "ts",
  "typescript",
  "js",
  "javascript",
  "tsx",
  "jsx",
  "json5",
  "go",
  "rust",
  "rs",
  "c",
  "cpp",
  "c++",
  "java",
  "kotlin",
  "swift",
  "cs",
  "csharp",
  "php",
  "scss",
  "css",
]);

/** The tokens of `code` in `lang` (a fence's info string; "" for none). */
export function highlight(code: string, lang: string): Token[] {
  const l = lang.toLowerCase();
  const hash = HASH_COMMENTS.has(l);
  const slash = SLASH_COMMENTS.has(l);
  const parts = [
    slash ? String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)` : "",
    hash ? String.raw`(?<![\w$])#[^\n]*` : "",
    l === "sql" ? String.raw`--[^\n]*` : "",
    String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|\`(?:[^\`\\]|\\.)*\`?`,
    String.raw`\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b`,
    String.raw`[A-Za-z_$][\w$]*`,
  ].filter((p) => p !== "");
  const re = new RegExp(parts.map((p) => `(${p})`).join("|"), "gi");
  const tokens: Token[] = [];
  const push = (type: TokenType, text: string) => {
    const prev = tokens.at(-1);
    if (prev?.type === type) tokens[tokens.length - 1] = { type, text: prev.text + text };
    else tokens.push({ type, text });
  };
  let last = 0;
  for (const m of code.matchAll(re)) {
    if (m.index > last) push("plain", code.slice(last, m.index));
    last = m.index + m[0].length;
    const text = m[0];
    const first = text[0] ?? "";
    if (text.startsWith("//") || text.startsWith("/*") || text.startsWith("--") || first === "#")
      push("comment", text);
    else if (first === '"' || first === "'" || first === "`") push("string", text);
    else if (/\d/.test(first)) push("number", text);
    else push(KEYWORDS.has(text) ? "keyword" : "plain", text);
  }
  if (last < code.length) push("plain", code.slice(last));
  return tokens;
}
