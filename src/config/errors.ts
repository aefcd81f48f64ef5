import { z } from "zod";

/** A configuration problem; `message` is ready to print as is. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    message: string,
    /** The offending file, when the problem is in one. */
    readonly file?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

/**
 * Per-parse error map: says what is expected for the issues the schema leaves to zod, so every
 * line of the final message has the same "expected …" shape. Schema-level messages take precedence.
 */
export function expectation(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${quote(issue.values[0])}`
        : `expected one of ${issue.values.map(quote).join(", ")}`;
    case "too_small":
      return issue.origin === "array"
        ? `expected at least ${String(issue.minimum)} item(s)`
        : `expected at least ${String(issue.minimum)}`;
    case "too_big":
      return issue.origin === "array"
        ? `expected at most ${String(issue.maximum)} item(s)`
        : `expected at most ${String(issue.maximum)}`;
    case "invalid_format":
      return `expected a valid ${issue.format}`;
    case "not_multiple_of":
    case "unrecognized_keys":
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
    case "custom":
      return undefined;
  }
}

/** One line per problem: `<key path>: <what is expected>, got <value>`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], schema: z.ZodType): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const known = objectKeysAt(schema, issue.path);
      for (const key of issue.keys) {
        lines.push(`${formatPath([...issue.path, key])}: ${unknownKey(key, known)}`);
      }
      continue;
    }
    const where = formatPath(issue.path);
    lines.push(
      issue.input === undefined
        ? `${where}: required key is missing (${issue.message})`
        : `${where}: ${issue.message}, got ${describeValue(issue.input)}`,
    );
  }
  return lines;
}

/** `server.port`, `agentCard.skills[0].id`; the document itself is `(top level)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else out += out === "" ? String(step) : `.${String(step)}`;
  }
  return out === "" ? "(top level)" : out;
}

export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value !== null && typeof value === "object") return "an object";
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 56)}..."` : json;
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function unknownKey(key: string, known: readonly string[]): string {
  if (known.length === 0) return "unknown key";
  const close = known
    .map((k) => ({ k, d: editDistance(k.toLowerCase(), key.toLowerCase()) }))
    .filter(({ k, d }) => d <= Math.max(1, Math.floor(k.length / 3)))
    .sort((a, b) => a.d - b.d)[0];
  return close
    ? `unknown key, did you mean "${close.k}"?`
    : `unknown key, expected one of ${known.map(quote).join(", ")}`;
}

// Walks the schema along an issue's path to list the keys allowed where an unknown one was found.
function objectKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  let i = 0;
  for (;;) {
    if (
      node instanceof z.ZodOptional ||
      node instanceof z.ZodDefault ||
      node instanceof z.ZodPrefault
    ) {
      node = node.unwrap();
    } else if (node instanceof z.ZodPipe) {
      node = node.in;
    } else if (i === path.length) {
      break;
    } else {
      const step = path[i++];
      if (node instanceof z.ZodObject && typeof step === "string") node = node.shape[step];
      else if (node instanceof z.ZodArray && typeof step === "number") node = node.element;
      else return [];
    }
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape).filter((k) => k !== "$schema") : [];
}

// Optimal string alignment: a swapped pair of letters ("nmae") counts as one edit, like a typo.
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}
