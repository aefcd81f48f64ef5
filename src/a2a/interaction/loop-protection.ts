import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { DENIAL, TEXT } from "../../contract/texts.js";
import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { denialKey, denialMessage, planOf, questionsOf, type InputRequest } from "./answers.js";

/** The runtime's tool that ends plan mode, asking approval of the plan. */
export const EXIT_PLAN_MODE = "ExitPlanMode";

/** What `canUseTool` says of a call, and whether its task awaits a plan approval. */
export interface RequestOptions {
  readonly title?: string | undefined;
  readonly decisionReason?: string | undefined;
  /** Set when the task runs in plan mode: `ExitPlanMode` is a `plan_approval`. */
  readonly planApproval?: { readonly modeAfter: PermissionMode } | undefined;
}

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
  deny(
    toolName: string,
    input: unknown,
    reason: string | undefined,
    message = denialMessage(reason),
  ): DenialVerdict {
    this.denied.add(denialKey(toolName, input));
    this.count++;
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
  options: RequestOptions,
  ledger: DenialLedger,
  policy: { readonly permissionPrompts: "input-required" | "deny" },
): { kind: "request"; request: InputRequest } | { kind: "verdict"; verdict: DenialVerdict } {
  // Asked for, so always bridged (like a question); the same plan again is a loop.
  const plan = options.planApproval;
  if (toolName === EXIT_PLAN_MODE && plan !== undefined) {
    const repeated = ledger.repeated(toolName, input);
    if (repeated !== undefined) return { kind: "verdict", verdict: repeated };
    return {
      kind: "request",
      request: { kind: "plan", toolName, input, plan: planOf(input), modeAfter: plan.modeAfter },
    };
  }
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
