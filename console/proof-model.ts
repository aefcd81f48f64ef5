/**
 * A delivery's `proof-of-work` artifact as the console's panel shows it (docs/delivery.md "Proof
 * of work"): its JSON read into what the page knows (the branch, the commits, the files, every
 * check of every round) and, generically, every other field a step adds (`review`, `push`,
 * `pullRequest`, `merge`, or one added later): a URL becomes a link, a `…Ms` number a duration,
 * an object its fields. Its Markdown part is kept for an artifact without readable JSON. Pure.
 */
import type { Artifact } from "@a2a-js/sdk";
import { checkRunOf, labelOf, type CheckRun } from "./delivery-model.js";
import { partText } from "./file-model.js";
import { duration } from "./words.js";

/** A value shown generically. */
export type Shown =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "link"; readonly href: string; readonly text: string }
  | { readonly kind: "list"; readonly items: readonly Shown[] }
  | { readonly kind: "fields"; readonly fields: readonly Field[] };

export interface Field {
  readonly key: string;
  readonly label: string;
  readonly value: Shown;
}

const LABELS: Readonly<Record<string, string>> = { url: "URL", htmlUrl: "URL", id: "ID" };

const isLink = (s: string): boolean => /^https?:\/\/[^\s]+$/i.test(s);

/** `value` (under `key`) as the page shows it, whatever its shape. */
export function shownOf(value: unknown, key = ""): Shown {
  if (typeof value === "string")
    return isLink(value)
      ? { kind: "link", href: value, text: value }
      : { kind: "text", text: value };
  if (typeof value === "number")
    return { kind: "text", text: /Ms$/.test(key) ? duration(value) : String(value) };
  if (typeof value === "boolean") return { kind: "text", text: value ? "yes" : "no" };
  if (Array.isArray(value))
    return value.length === 0
      ? { kind: "text", text: "none" }
      : { kind: "list", items: value.map((v) => shownOf(v, key)) };
  if (typeof value === "object" && value !== null)
    return { kind: "fields", fields: fieldsOf(value) };
  return { kind: "text", text: "none" };
}

/** An object's fields, in its order, each labelled in words. */
export function fieldsOf(value: object): Field[] {
  return Object.entries(value).map(([key, v]) => ({
    key,
    label: LABELS[key] ?? labelOf(key),
    value: shownOf(v, key),
  }));
}

/** What the panel shows of a proof of work. */
export interface ProofView {
  /** Target, branch, base and head commits, rounds: what every proof has. */
  readonly facts: readonly Field[];
  readonly files: readonly { readonly path: string; readonly change: string }[];
  readonly checks: readonly CheckRun[];
  /** Every other field (`review` once it has findings, `push`, `pullRequest`, `merge`, …). */
  readonly extras: readonly Field[];
  /** The Markdown rendering: shown instead when the JSON cannot be read. */
  readonly markdown: string;
  /** Whether the JSON was read; false: only the Markdown is shown. */
  readonly structured: boolean;
}

const FACTS = ["target", "branch", "baseCommit", "headCommit", "rounds"] as const;
const KNOWN = new Set<string>([...FACTS, "files", "checks"]);

function filesOf(value: unknown): ProofView["files"] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f: unknown) => {
    const { path, change } = (f ?? {}) as Record<string, unknown>;
    return typeof path === "string"
      ? [{ path, change: typeof change === "string" ? change : "" }]
      : [];
  });
}

/** The panel's view of a `proof-of-work` artifact: its data part, its Markdown part. */
export function proofViewOf(artifact: Artifact): ProofView {
  const markdown = artifact.parts.map((p) => partText(p, "text/plain") ?? "").join("");
  const part = artifact.parts.find((p) => p.content?.$case === "data")?.content;
  return proofViewFrom(part?.$case === "data" ? part.value : undefined, markdown);
}

/** The panel's view of a proof of work's JSON (`data`), or of its Markdown when that is unreadable. */
export function proofViewFrom(data: unknown, markdown: string): ProofView {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return { facts: [], files: [], checks: [], extras: [], markdown, structured: false };
  const proof = data as Record<string, unknown>;
  const checks = Array.isArray(proof.checks)
    ? proof.checks.flatMap((c: unknown) => {
        const run =
          typeof c === "object" && c !== null
            ? checkRunOf(c as Record<string, unknown>)
            : undefined;
        return run === undefined ? [] : [run];
      })
    : [];
  const facts = fieldsOf(
    Object.fromEntries(FACTS.filter((k) => proof[k] !== undefined).map((k) => [k, proof[k]])),
  );
  // An empty review is the review not run: nothing to show. Anything else shows as it comes.
  const extras = fieldsOf(
    Object.fromEntries(
      Object.entries(proof).filter(
        ([k, v]) => !KNOWN.has(k) && !(k === "review" && Array.isArray(v) && v.length === 0),
      ),
    ),
  );
  return { facts, files: filesOf(proof.files), checks, extras, markdown, structured: true };
}
