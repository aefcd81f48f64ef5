import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { DENIAL, TEXT } from "../../contract/texts.js";
import { denialKey, denialMessage, questionsOf, type InputRequest } from "./answers.js";

/** What a denial hands back to Claude, and, when it is the last straw, why the task stops. */
export interface DenialVerdict {
  readonly result: PermissionResult;
  /** Set when loop protection stops the task: its FAILED status message. */
  readonly stop: string | undefined;
}

/**
 * Loop protection of one task (docs/protocol.md "Loop protection"): the permissions denied so far, by tool
 * and input. The same request twice, or one denial too many, stops the task instead of letting
 * Claude and the client round-trip forever.
 */
export class DenialLedger {
  private readonly denied = new Set<string>();
  private count = 0;

  constructor(private readonly max: number) {}

  /** A request that was already denied: the verdict that stops the task, else undefined. */
  repeated(toolName: string, input: unknown): DenialVerdict | undefined {
    if (!this.denied.has(denialKey(toolName, input))) return undefined;
    return {
      result: { behavior: "deny", message: denialMessage(undefined), interrupt: true },
      stop: TEXT.sameDenialAgain(toolName),
    };
  }

  /** Records a denial; the one that reaches the limit also stops the run. */
  deny(toolName: string, input: unknown, reason: string | undefined): DenialVerdict {
    this.denied.add(denialKey(toolName, input));
    this.count++;
    const message = denialMessage(reason);
    if (this.count < this.max) return { result: { behavior: "deny", message }, stop: undefined };
    return {
      result: { behavior: "deny", message, interrupt: true },
      stop: TEXT.tooManyDenials(this.count, this.max, toolName),
    };
  }
}

/**
 * What a tool call that reached `canUseTool` becomes: a prompt for the client, or a verdict given
 * at once (a malformed question, a request loop protection refuses, prompts turned off).
 */
export function inputRequestFor(
  toolName: string,
  input: Record<string, unknown>,
  options: { title?: string | undefined; decisionReason?: string | undefined },
  ledger: DenialLedger,
  policy: { readonly permissionPrompts: "input-required" | "deny" },
): { kind: "request"; request: InputRequest } | { kind: "verdict"; verdict: DenialVerdict } {
  if (toolName === "AskUserQuestion") {
    const questions = questionsOf(input);
    if (questions === undefined) {
      return {
        kind: "verdict",
        verdict: {
          result: { behavior: "deny", message: DENIAL.malformedQuestion },
          stop: undefined,
        },
      };
    }
    return { kind: "request", request: { kind: "question", toolName, input, questions } };
  }
  const verdict =
    ledger.repeated(toolName, input) ??
    (policy.permissionPrompts === "deny"
      ? ledger.deny(toolName, input, DENIAL.promptsOff)
      : undefined);
  if (verdict !== undefined) return { kind: "verdict", verdict };
  const { title, decisionReason } = options;
  return {
    kind: "request",
    request: { kind: "permission", toolName, input, title, decisionReason },
  };
}
