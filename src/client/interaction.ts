/**
 * What an input-required status asks for (docs/protocol.md "Interactive tasks"), and the structured answers
 * the server takes back. Pure: no I/O, and Node-free: the browser console (console/) imports it too.
 */
import type { Message, Part } from "@a2a-js/sdk";
import { dataPart, firstData, partsText } from "./message-parts.js";
import { asString, isRecord } from "../common/json.js";
import { KIND } from "../contract/kinds.js";

export interface QuestionOption {
  readonly label: string;
  readonly description?: string;
}

export interface Question {
  readonly question: string;
  readonly header?: string;
  readonly options: readonly QuestionOption[];
  readonly multiSelect: boolean;
}

export type InputRequest =
  | { readonly kind: "question"; readonly text: string; readonly questions: readonly Question[] }
  | {
      readonly kind: "permission";
      readonly text: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly title?: string;
      readonly decisionReason?: string;
    }
  /**
   * A delivery's merge waiting for approval (`merge_approval`, docs/delivery.md): answered
   * yes, or no with a reason, as a permission is.
   */
  | {
      readonly kind: "merge";
      readonly text: string;
      /** What a yes merges (the `merge` of the contract's MergeApprovalData). */
      readonly merge: {
        readonly branch: string;
        readonly headCommit: string;
        readonly into: string;
        readonly intoCommit: string;
        readonly how: "fast-forward" | "merge-commit";
      };
      readonly approvedBy: string;
      readonly files: readonly string[];
      readonly checks: readonly string[];
    }
  /** Any other agent: a prompt in plain text, answered in plain text. */
  | { readonly kind: "text"; readonly text: string };

function parseQuestion(v: unknown): Question | undefined {
  if (!isRecord(v) || typeof v.question !== "string") return undefined;
  const options = Array.isArray(v.options)
    ? v.options.flatMap((o): QuestionOption[] =>
        isRecord(o) && typeof o.label === "string"
          ? [
              {
                label: o.label,
                ...(typeof o.description === "string" && { description: o.description }),
              },
            ]
          : [],
      )
    : [];
  return {
    question: v.question,
    ...(typeof v.header === "string" && { header: v.header }),
    options,
    multiSelect: v.multiSelect === true,
  };
}

/**
 * Reads the status message of an input-required task. A peer's prompt passed up
 * (`delegated_input`, docs/peers.md) reads as the peer's own question or permission request, so
 * its answer is built the same way (and forwarded to the peer as it is).
 */
export function inputRequestOf(message: Message | undefined): InputRequest {
  const text = partsText(message?.parts);
  const data = firstData(message?.parts);
  const kind =
    asString(message?.metadata?.kind) ?? (isRecord(data) ? asString(data.kind) : undefined);
  if (kind === KIND.delegatedInput && isRecord(data) && Array.isArray(data.data)) {
    const inner: unknown = data.data[0];
    if (isRecord(inner)) return requestOfData(asString(inner.kind), inner, text);
  }
  return requestOfData(kind, data, text);
}

function requestOfData(kind: string | undefined, data: unknown, text: string): InputRequest {
  if (kind === KIND.askUserQuestion && isRecord(data) && Array.isArray(data.questions)) {
    const questions = data.questions.flatMap((q) => parseQuestion(q) ?? []);
    if (questions.length > 0) return { kind: "question", text, questions };
  }
  if (kind === KIND.permissionRequest && isRecord(data)) {
    const title = asString(data.title);
    const decisionReason = asString(data.decisionReason);
    return {
      kind: "permission",
      text,
      toolName: asString(data.toolName) ?? "a tool",
      input: data.input,
      ...(title !== undefined && { title }),
      ...(decisionReason !== undefined && { decisionReason }),
    };
  }
  if (kind === KIND.mergeApproval && isRecord(data)) {
    const merge = mergeOf(data, text);
    if (merge !== undefined) return merge;
  }
  return { kind: "text", text };
}

/** A `merge_approval` data part as the clients show it; undefined when not so shaped. */
function mergeOf(data: Record<string, unknown>, text: string): InputRequest | undefined {
  const m = data.merge;
  if (!isRecord(m) || typeof m.branch !== "string" || typeof m.into !== "string") return undefined;
  const proof = isRecord(data.proof) ? data.proof : {};
  const files = Array.isArray(proof.files) ? proof.files : [];
  const checks = Array.isArray(proof.checks) ? proof.checks : [];
  return {
    kind: "merge",
    text,
    merge: {
      branch: m.branch,
      into: m.into,
      headCommit: asString(m.headCommit) ?? "",
      intoCommit: asString(m.intoCommit) ?? "",
      how: m.how === "merge-commit" ? "merge-commit" : "fast-forward",
    },
    approvedBy: asString(data.approvedBy) ?? "caller",
    files: files.flatMap((f) => (isRecord(f) && typeof f.path === "string" ? [f.path] : [])),
    checks: checks.flatMap((r) =>
      isRecord(r) && typeof r.check === "string"
        ? [`${r.check} ${asString(r.result) ?? "?"} (round ${String(r.round)})`]
        : [],
    ),
  };
}

/** `{ answers: { "<question>": "<label>" | ["<label>", …] } }`. */
export function answersPart(answers: Readonly<Record<string, string | readonly string[]>>): Part {
  return dataPart({ answers });
}

/** `{ kind: "permission_response", decision, reason? }`; a reason only goes with a deny. */
export function permissionPart(decision: "allow" | "deny", reason?: string): Part {
  const trimmed = reason?.trim();
  return dataPart({
    kind: "permission_response",
    decision,
    ...(decision === "deny" && trimmed && { reason: trimmed }),
  });
}

/** A short one-line view of a tool input for the permission prompt (long values cut). */
export function describeInput(input: unknown, max = 400): string {
  let text: string;
  if (isRecord(input) && typeof input.command === "string") text = `$ ${input.command}`;
  else if (isRecord(input) && typeof input.file_path === "string") {
    const rest = Object.keys(input).filter((k) => k !== "file_path");
    text = `${input.file_path}${rest.length ? ` (${rest.join(", ")})` : ""}`;
  } else text = JSON.stringify(input) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
