/**
 * The top-level scalar keys of a Markdown file's YAML frontmatter (`---` … `---`), as Claude
 * Code's command and agent files write them: plain, single- or double-quoted values, plain values
 * continued on indented lines, and `|` / `>` block scalars. Anything else (lists, maps) is skipped:
 * only `name` and `description` are wanted. Not a YAML parser; no dependency for two keys. Pure.
 */
export function frontmatter(text: string): Record<string, string> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return {};
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end === -1) return {};
  const body = lines.slice(1, end);
  const out: Record<string, string> = {};
  for (let i = 0; i < body.length; i++) {
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(body[i] ?? "");
    if (!match) continue;
    const key = match[1] as string;
    const raw = (match[2] ?? "").trim();
    // The indented lines that follow belong to this key.
    const continued: string[] = [];
    while (i + 1 < body.length && /^(\s+\S|\s*$)/.test(body[i + 1] ?? "")) {
      continued.push(body[++i] ?? "");
    }
    const value = scalar(raw, continued);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function scalar(raw: string, continued: readonly string[]): string | undefined {
  const block = /^([|>])[+-]?$/.exec(raw);
  if (block) {
    const lines = continued.map((l) => l.trim());
    while (lines.at(-1) === "") lines.pop();
    return block[1] === "|" ? lines.join("\n") : foldLines(lines);
  }
  if (raw.startsWith('"')) return doubleQuoted([raw, ...continued.map((l) => l.trim())].join(" "));
  if (raw.startsWith("'")) {
    const joined = [raw, ...continued.map((l) => l.trim())].join(" ");
    const m = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(joined);
    return m ? (m[1] as string).replace(/''/g, "'") : undefined;
  }
  // A list or a map under the key: not a scalar.
  if (raw === "" && continued.some((l) => /^\s+(-\s|[\w-]+\s*:)/.test(l))) return undefined;
  if (raw.startsWith("[") || raw.startsWith("{")) return undefined;
  const plain = foldLines([raw, ...continued.map((l) => l.trim())]);
  return plain.replace(/\s+#.*$/, "").trim();
}

/** YAML folding: lines join with a space, an empty line is a line break. */
function foldLines(lines: readonly string[]): string {
  return lines
    .join("\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.split("\n").join(" ").trim())
    .filter((p) => p !== "")
    .join("\n");
}

function doubleQuoted(text: string): string | undefined {
  const m = /^("(?:[^"\\]|\\.)*")\s*(#.*)?$/.exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1] as string) as string;
  } catch {
    // A YAML escape JSON lacks (\x41, \e…): the text between the quotes, as written.
    return (m[1] as string).slice(1, -1);
  }
}
