/**
 * A merge to approve (docs/delivery.md, docs/protocol.md `merge_approval`): a green delivery with
 * the target `merge` asks before it changes the workspace's branch. What the page reads of the ask
 * (the summary, the merge a yes would make, who may answer, the proof of work) and what it sends
 * back: an answer as a permission's (`permission_response` `allow`, or `deny` with an optional
 * reason). Pure: no DOM.
 */
import type { Message, Part, Task } from "@a2a-js/sdk";
import { KIND } from "../src/contract/kinds.js";
import { OWNER_KEY } from "../src/contract/operator.js";
import { messageText, permissionPart } from "./answers.js";
import { fieldsOf, proofViewFrom, type Field, type ProofView } from "./proof-model.js";

/** What the page shows of a `merge_approval` prompt. */
export interface MergeAsk {
  /** The summary, Markdown (the status's text part). */
  readonly summary: string;
  /** The merge a yes would make, as fields (branch, head, into, its commit, how). */
  readonly merge: readonly Field[];
  readonly approvedBy: MergeApprover;
  readonly proof: ProofView | undefined;
}

type Rec = Record<string, unknown>;

/**
 * Who may answer (src/contract/merge-approval.ts `MergeApprover`, restated: that module's imports
 * need Node, which the page's build has not).
 */
export type MergeApprover = "caller" | "operator";

const dataOf = (message: Message | undefined): Rec | undefined => {
  for (const p of message?.parts ?? []) {
    const v: unknown = p.content?.$case === "data" ? p.content.value : undefined;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Rec;
  }
  return undefined;
};

/** The merge ask `message` carries; undefined for any other prompt. */
export function mergeAskOf(message: Message | undefined): MergeAsk | undefined {
  const data = dataOf(message);
  if (message?.metadata?.kind !== KIND.mergeApproval && data?.kind !== KIND.mergeApproval)
    return undefined;
  const merge: unknown = data?.merge;
  return {
    summary: messageText(message),
    merge: typeof merge === "object" && merge !== null ? fieldsOf(merge) : [],
    // Anything but the caller's default is read as the stricter one.
    approvedBy:
      data?.approvedBy === "caller" || data?.approvedBy === undefined ? "caller" : "operator",
    proof: data?.proof === undefined ? undefined : proofViewFrom(data.proof, ""),
  };
}

/** An answer to the ask: its parts, and the words the timeline shows for it (as on a reload). */
export function mergeAnswer(
  decision: "allow" | "deny",
  reason = "",
): { readonly parts: Part[]; readonly shown: string } {
  const why = reason.trim();
  return {
    parts: [permissionPart(decision, why)],
    shown: decision === "allow" ? "Allow" : why === "" ? "Deny" : `Deny: ${why}`,
  };
}

/**
 * Whether the viewer is an operator, as far as the page can tell: an operator's reads carry
 * `metadata.owner` on every task (docs/security.md "Operators"); nobody else's do.
 */
export const viewerIsOperator = (tasks: readonly Pick<Task, "metadata">[]): boolean =>
  tasks.some((t) => typeof t.metadata?.[OWNER_KEY] === "string");

/**
 * Who may approve, to say under the buttons: nothing when the viewer may; the rule when only an
 * operator may and the viewer does not look like one (the server refuses the yes anyway).
 */
export function approverNote(ask: MergeAsk, operator: boolean): string | undefined {
  if (ask.approvedBy === "caller" || operator) return undefined;
  return (
    'Only an operator may approve this merge (claude.delivery.approvedBy: "operator"): ' +
    "the server refuses a yes from anyone server.operators does not name."
  );
}
