import type { Message } from "@a2a-js/sdk";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { OneShot, type Timers } from "../../common/timers.js";
import type { Answer, InputRequest } from "../interaction/answers.js";
import {
  DenialLedger,
  inputRequestFor,
  type DenialVerdict,
  type RequestOptions,
} from "../interaction/loop-protection.js";
import { PLAN_TEXT } from "../../contract/plan.js";
import { InputRequestQueue, type InputRequestEntry } from "../interaction/input-request-queue.js";
import { DENY_WITHDRAWN, type TurnPolicy } from "./environment.js";

/**
 * What the client's answer to a input request hands back to Claude: a question's answers or a granted
 * permission go through as the call's input; a denial is recorded by loop protection, whose
 * verdict may also stop the task.
 */
export function verdictFor(
  request: InputRequest,
  answer: Answer,
  ledger: DenialLedger,
): DenialVerdict {
  if (answer.kind === "delegated") {
    // Handed to the delegated call, which forwards the parts to the peer.
    return {
      result: { behavior: "allow", updatedInput: { parts: answer.parts } },
      stop: undefined,
    };
  }
  if (answer.kind === "question") {
    const updatedInput = { ...request.input, answers: answer.answers };
    return { result: { behavior: "allow", updatedInput }, stop: undefined };
  }
  const { decision } = answer;
  if (request.kind === "merge") {
    // The server's own ask: no tool call to deny, nothing for loop protection to count.
    return decision.decision === "allow"
      ? { result: { behavior: "allow", updatedInput: {} }, stop: undefined }
      : { result: { behavior: "deny", message: decision.reason ?? "" }, stop: undefined };
  }
  if (request.kind === "plan") {
    if (decision.decision === "deny") {
      const message = PLAN_TEXT.rejected(decision.reason);
      return ledger.deny(request.toolName, request.input, decision.reason, message);
    }
    // The runtime leaves plan mode for this one (its own mechanism, as its terminal's "yes").
    const setMode = { type: "setMode", mode: request.modeAfter, destination: "session" } as const;
    const result = {
      behavior: "allow",
      updatedInput: request.input,
      updatedPermissions: [setMode],
    };
    return { result: result as PermissionResult, stop: undefined };
  }
  if (decision.decision === "allow") {
    return { result: { behavior: "allow", updatedInput: request.input }, stop: undefined };
  }
  return ledger.deny(request.toolName, request.input, decision.reason);
}

/** What a tool call asking for permission becomes: a verdict at once, or a input request in the queue. */
export type PromptRequest =
  | { readonly kind: "verdict"; readonly verdict: DenialVerdict }
  /** `result` is what the runtime's `canUseTool` awaits: it settles exactly once. */
  | {
      readonly kind: "queued";
      readonly entry: InputRequestEntry;
      readonly result: Promise<PermissionResult>;
    };

/** The head input request with the answer the message that claimed it brought (parsed at admission). */
export interface ClaimedPrompt {
  readonly entry: InputRequestEntry;
  readonly answer: Answer;
}

/**
 * Which of its input requests a withdrawal settled: none (it was settled already), one the client never
 * saw, or the shown one, which the task then steps out of.
 */
export type Withdrawal = "settled_already" | "unseen" | "shown";

/**
 * The input requests of one task (docs/protocol.md "Interactive tasks"): the queue of those its runs wait on,
 * loop protection's ledger of denials, and the input timeout of the input request shown. It never moves
 * the task's phase: each method says what happened, and the task (`server-task.ts`) takes the
 * lifecycle step and publishes the status.
 */
export class TaskInputRequests {
  private readonly queue = new InputRequestQueue();
  private readonly ledger: DenialLedger;
  private readonly timer: OneShot;
  /** The input timeout fired while an answer was in flight: it applies if that answer fails. */
  private expired = false;

  constructor(
    private readonly policy: Pick<
      TurnPolicy,
      "permissionPrompts" | "maxPermissionDenials" | "inputTimeoutMs"
    >,
    timers: Timers,
    /** The input timeout of the shown input request fired (the task decides whether it still applies). */
    private readonly onTimeout: () => void,
  ) {
    this.ledger = new DenialLedger(policy.maxPermissionDenials);
    this.timer = new OneShot(timers);
  }

  /** How many input requests are pending, the shown one included. */
  get size(): number {
    return this.queue.size;
  }

  /** A tool call that reached `canUseTool`: a verdict given at once, or a queued input request. */
  request(
    toolName: string,
    input: Record<string, unknown>,
    options: RequestOptions,
  ): PromptRequest {
    const decided = inputRequestFor(toolName, input, options, this.ledger, this.policy);
    if (decided.kind === "verdict") return decided;
    return { kind: "queued", ...this.queue.add(decided.request) };
  }

  /**
   * A peer's prompt passed up from a delegated call, or the server's own ask (a merge's
   * approval): queued as it is (loop protection and the permission policy do not apply to it).
   */
  requestDelegated(request: InputRequest): {
    entry: InputRequestEntry;
    result: Promise<PermissionResult>;
  } {
    return this.queue.add(request);
  }

  /** The shown input request, when it is a peer's prompt (its timeout ends the call, not the task). */
  delegatedHead(): InputRequestEntry | undefined {
    const head = this.queue.head;
    return head?.shown === true && head.request.kind === "delegated" ? head : undefined;
  }

  /** Settles one input request with `result`, as the runtime withdrawing it would. */
  expire(entry: InputRequestEntry, result: PermissionResult): Withdrawal {
    const wasShown = entry.shown && this.queue.head === entry;
    if (!this.queue.settle(entry, result)) return "settled_already";
    return wasShown ? "shown" : "unseen";
  }

  /** The input request the client is shown, if one is. */
  shownHead(): InputRequestEntry | undefined {
    const head = this.queue.head;
    return head?.shown === true ? head : undefined;
  }

  /** The oldest input request, if the client has not been shown it yet. */
  unshownHead(): InputRequestEntry | undefined {
    const head = this.queue.head;
    return head === undefined || head.shown ? undefined : head;
  }

  /** The head is shown to the client: its input timeout starts. */
  show(entry: InputRequestEntry): InputRequest {
    entry.shown = true;
    const ms = this.policy.inputTimeoutMs;
    if (ms !== undefined) {
      this.expired = false;
      this.timer.arm(ms, () => this.onTimeout());
    }
    return entry.request;
  }

  /** Reserves the shown input request for one answering message; returns why it cannot. */
  claim(message: Pick<Message, "parts" | "messageId">): string | undefined {
    return this.queue.claim(message);
  }

  /**
   * The claiming request failed before it answered: the input request waits for another answer. True if
   * its input timeout fired meanwhile: it applies now.
   */
  unclaim(messageId: string): boolean {
    return this.queue.unclaim(messageId) && this.expired;
  }

  claimedBy(messageId: string): boolean {
    return this.queue.claimedBy(messageId);
  }

  /** The head, if `messageId` claimed it. */
  claimedHead(messageId: string): ClaimedPrompt | undefined {
    const head = this.queue.head;
    const claim = head?.claim;
    if (head === undefined || claim?.messageId !== messageId) return undefined;
    return { entry: head, answer: claim.answer };
  }

  /** Hands the answer to the waiting run; the text the task fails with if loop protection stops it. */
  settleAnswered(claimed: ClaimedPrompt): string | undefined {
    const verdict = verdictFor(claimed.entry.request, claimed.answer, this.ledger);
    this.queue.settle(claimed.entry, verdict.result);
    return verdict.stop;
  }

  /**
   * The input timeout fired with the task parked: true if an answer is on its way, which wins
   * unless its request fails (then `unclaim` says the timeout applies).
   */
  deferTimeout(): boolean {
    if (this.queue.head?.claim === undefined) return false;
    this.expired = true;
    return true;
  }

  /** The runtime gave up the call (its turn was interrupted, the process ended). */
  withdraw(entry: InputRequestEntry): Withdrawal {
    const wasShown = entry.shown && this.queue.head === entry;
    if (!this.queue.settle(entry, DENY_WITHDRAWN)) return "settled_already";
    return wasShown ? "shown" : "unseen";
  }

  /** Settles every input request still pending (the task ended, or its turn is over). */
  settleAll(result: PermissionResult): void {
    this.queue.settleAll(result);
  }

  /** No input request is shown any more: its input timeout is off. */
  clearTimer(): void {
    this.timer.clear();
    this.expired = false;
  }
}
