import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { PLAN_MEDIA_TYPE, PLAN_TEXT, planApprovalData } from "../../contract/plan.js";
import type { Message, Part } from "@a2a-js/sdk";
import { DELEGATION_TEXT, delegatedInputData } from "../../contract/delegation.js";
import {
  askUserQuestionData,
  permissionRequestData,
  type InputRequestContent,
  type Question,
} from "../../contract/data-parts.js";
import { DENIAL, TEXT } from "../../contract/texts.js";
import { decideFreeText, decidePlanReply, type Decision } from "./permission-reply.js";
import { isRecord } from "../../common/json.js";
import {
  MERGE_SUMMARY_MEDIA_TYPE,
  MERGE_TEXT,
  type MergeApprovalData,
} from "../../contract/merge-approval.js";

/** What Claude is waiting for while a task is parked in input-required. */
export type InputRequest =
  | { kind: "question"; toolName: string; input: Record<string, unknown>; questions: Question[] }
  | {
      kind: "permission";
      toolName: string;
      input: Record<string, unknown>;
      title: string | undefined;
      decisionReason: string | undefined;
    }
  /** `ExitPlanMode` of a task in plan mode: approving carries the plan out in `modeAfter`. */
  | {
      kind: "plan";
      toolName: string;
      input: Record<string, unknown>;
      plan: string;
      modeAfter: PermissionMode;
    }
  /**
   * A peer's own prompt, passed up from a delegated call (docs/peers.md): the answer is not read
   * here but forwarded to the peer as it came, whose own rules decide what it means.
   */
  | {
      kind: "delegated";
      toolName: string;
      input: Record<string, unknown>;
      agent: string;
      peerTaskId: string;
      text: string;
      data: readonly unknown[];
    }
  /**
   * The server's own ask, not a tool call's: a delivery's merge waits for approval
   * (docs/delivery.md "Merge on approval"). Read as a permission is: only a clear yes merges.
   */
  | {
      kind: "merge";
      toolName: typeof MERGE_APPROVAL_TOOL;
      input: Record<string, unknown>;
      data: MergeApprovalData;
    };

/** The name a merge approval goes by where a prompt's tool is named (logs, answers). */
export const MERGE_APPROVAL_TOOL = "merge_approval";

export type { Question } from "../../contract/data-parts.js";

/** The input-required status message: the bare prompt as text, everything else as data. */
export function inputRequestContent(p: InputRequest): InputRequestContent {
  switch (p.kind) {
    case "question":
      return {
        text: p.questions.map((q) => q.question).join("\n"),
        data: askUserQuestionData(p.questions),
      };
    case "permission":
      return { text: TEXT.permissionRequest(p.toolName, p.title), data: permissionRequestData(p) };
    case "plan":
      return {
        text: p.plan.trim() === "" ? PLAN_TEXT.noPlan : p.plan,
        mediaType: PLAN_MEDIA_TYPE,
        data: planApprovalData(p.plan),
      };
    case "delegated":
      return {
        text: DELEGATION_TEXT.input(p.agent, p.text),
        data: delegatedInputData({
          agent: p.agent,
          taskId: p.peerTaskId,
          text: p.text,
          data: p.data,
        }),
      };
    case "merge":
      return {
        text: MERGE_TEXT.summary(p.data.merge),
        mediaType: MERGE_SUMMARY_MEDIA_TYPE,
        data: p.data,
      };
  }
}

/** The plan `ExitPlanMode` asks approval for: the runtime reads it from Claude's plan file. */
export const planOf = (input: Record<string, unknown>): string =>
  typeof input.plan === "string" ? input.plan : "";

/** AskUserQuestion's questions, or undefined when the input is not shaped as documented. */
export function questionsOf(input: Record<string, unknown>): Question[] | undefined {
  const questions = input.questions;
  if (!Array.isArray(questions) || questions.length === 0) return undefined;
  const out: Question[] = [];
  for (const q of questions as unknown[]) {
    if (typeof q !== "object" || q === null) return undefined;
    const question = (q as { question?: unknown }).question;
    if (typeof question !== "string") return undefined;
    out.push(q as Question);
  }
  return out;
}

// ---- answers -------------------------------------------------------------------------------

/** The text a denial hands to Claude; the second sentence is what stops it asking again. */
export const denialMessage = DENIAL.byClient;

export type Answer =
  | { kind: "permission"; decision: Decision }
  | { kind: "question"; answers: Record<string, string> }
  /** The caller's answer to a peer's prompt: its parts, forwarded as they are. */
  | { kind: "delegated"; parts: Part[] };

export class AnswerError extends Error {}

function dataParts(message: Pick<Message, "parts">): unknown[] {
  return message.parts.flatMap((p): unknown[] =>
    p.content?.$case === "data" ? [p.content.value as unknown] : [],
  );
}

function textOf(message: Pick<Message, "parts">): string {
  return message.parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n")
    .trim();
}

/** Reads a client's reply to a pending prompt. A structured data part always wins over text. */
export function parseAnswer(prompt: InputRequest, message: Pick<Message, "parts">): Answer {
  const data = dataParts(message);
  const text = textOf(message);
  switch (prompt.kind) {
    case "delegated":
      if (message.parts.length === 0) throw new AnswerError("The answer has no parts.");
      return { kind: "delegated", parts: message.parts };
    case "plan":
    case "merge":
    case "permission": {
      const structured = data.find((d) => isRecord(d) && d.kind === "permission_response");
      const decide = prompt.kind === "plan" ? decidePlanReply : decideFreeText;
      if (isRecord(structured)) {
        const { decision, reason } = structured;
        if (decision === "allow") return { kind: "permission", decision: { decision: "allow" } };
        if (decision === "deny") {
          const why = typeof reason === "string" && reason.trim() ? reason.trim() : undefined;
          return { kind: "permission", decision: { decision: "deny", reason: why } };
        }
        throw new AnswerError('A permission_response needs "decision": "allow" or "deny".');
      }
      return { kind: "permission", decision: decide(text) };
    }
    case "question": {
      const structured = data.find((d) => isRecord(d) && isRecord(d.answers));
      if (isRecord(structured) && isRecord(structured.answers)) {
        const answers: Record<string, string> = {};
        const known = new Set(prompt.questions.map((q) => q.question));
        for (const [question, value] of Object.entries(structured.answers)) {
          if (!known.has(question)) {
            throw new AnswerError(`"${question}" is not one of the questions asked.`);
          }
          const label = Array.isArray(value) ? value.map(String).join(", ") : value;
          if (typeof label !== "string") {
            throw new AnswerError(
              `The answer to "${question}" must be a label or a list of labels.`,
            );
          }
          answers[question] = label;
        }
        if (Object.keys(answers).length === 0)
          throw new AnswerError("The answers object is empty.");
        return { kind: "question", answers };
      }
      const first = prompt.questions[0];
      if (text === "" || first === undefined) {
        throw new AnswerError(
          'The answer has no text and no { "answers": { "<question>": "<label>" } } data part.',
        );
      }
      return { kind: "question", answers: { [first.question]: text } };
    }
  }
}

/** JSON with sorted keys, so the same input always gives the same denial key. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const denialKey = (toolName: string, input: unknown) => `${toolName} ${stableJson(input)}`;
