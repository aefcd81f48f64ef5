import type { Message, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { PermissionMode, PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { modeAfterPlan } from "../control/permission-mode.js";
import type { TaskRef } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import { DELEGATION_TEXT } from "../../contract/delegation.js";
import { TEXT } from "../../contract/texts.js";
import { inputRequestContent, type InputRequest } from "../interaction/answers.js";
import type { InputRequestEntry } from "../interaction/input-request-queue.js";
import { DENY_FOR_STOP } from "./environment.js";
import type { TaskCore } from "./task-core.js";
import type { TaskFinish } from "./task-finish.js";
import { promptMayShow, type PromptCall } from "./prompt-order.js";
import { answerRefusal } from "./task-merge.js";

/** What an answer settled: the request's tool, and a permission's decision or `question`. */
export interface AnsweredPrompt {
  readonly toolName: string;
  readonly answer: "allow" | "deny" | "question";
}

/** What the runtime's `canUseTool` says of a tool call besides its name and input. */
export interface ToolCallOptions {
  readonly signal: AbortSignal;
  readonly title?: string | undefined;
  readonly decisionReason?: string | undefined;
  /** The run that made the call and the call's id: its prompt waits for its `tool_use` status. */
  readonly runId?: string | undefined;
  readonly toolUseID?: string | undefined;
}

/**
 * A task's input requests, from the runtime's ask to the client's answer: the step into
 * input-required (`input_needed`) and out of it (`answered`), the claim an answering message
 * holds, a request the runtime withdraws, the input timeout. The queue, loop protection and the
 * timer themselves are input-requests.ts's. Plan approval and other asks land here.
 */
export class TaskInput {
  /** The call each queued tool prompt is about (prompt-order.ts); a peer's prompt names none. */
  private readonly calls = new WeakMap<InputRequestEntry, PromptCall>();
  /** The operator whose message claimed a prompt (none: its caller's). */
  private readonly answerers = new WeakMap<InputRequestEntry, string | undefined>();

  constructor(
    private readonly core: TaskCore,
    private readonly finish: TaskFinish,
  ) {}

  /**
   * Reserves the shown prompt for one answering message; returns why it cannot. `operator`: the
   * answering caller's name when it has the operator role (a merge approval may need one).
   */
  claim(message: Pick<Message, "parts" | "messageId">, operator?: string): string | undefined {
    if (this.core.ended) return "it has ended";
    if (this.core.phase.name !== "parked") return "it is not waiting for an answer";
    const shown = this.core.prompts.shownHead();
    const refused = shown && answerRefusal(shown.request, operator);
    if (refused) return refused;
    const why = this.core.prompts.claim(message);
    if (why === undefined && shown !== undefined) this.answerers.set(shown, operator);
    return why;
  }

  /**
   * The server's own ask (a delivery's merge approval): shown like a tool's prompt, with no run
   * waiting on it. Resolves with the answer and the operator who gave it (undefined: the
   * caller), or with a denial when the task ends first (canceled, the input timeout).
   */
  async serverAsk(
    request: InputRequest,
  ): Promise<{ result: PermissionResult; operator: string | undefined }> {
    if (this.core.ended) return { result: DENY_FOR_STOP, operator: undefined };
    const { entry, result } = this.core.prompts.requestDelegated(request);
    this.showNext();
    const settled = await result;
    return { result: settled, operator: this.answerers.get(entry) };
  }

  /** The claiming request failed before it answered: the prompt waits for another answer. */
  unclaim(messageId: string): void {
    if (this.core.prompts.unclaim(messageId)) this.onInputTimeout();
  }

  isClaimedBy(messageId: string): boolean {
    return this.core.phase.name === "parked" && this.core.prompts.claimedBy(messageId);
  }

  /**
   * Hands the claimed answer to the waiting run. The next prompt, if one waits, is shown at once
   * in its place (the task stays parked, nothing WORKING in between); else the task resumes,
   * its `resumed` naming the `operator` who answered, if one did. Returns what was answered
   * (the operator's answer is logged with it), undefined if nothing was.
   */
  answer(message: Pick<Message, "messageId">, operator?: string): AnsweredPrompt | undefined {
    const prompts = this.core.prompts;
    const claimed = prompts.claimedHead(message.messageId);
    if (claimed === undefined) return undefined;
    const resumed = (ref: TaskRef) => status.resumed(ref, operator);
    if (!this.leavePrompt(prompts.size > 1, resumed)) return undefined;
    const stop = prompts.settleAnswered(claimed);
    if (stop !== undefined) this.finish.fail(stop);
    else this.afterPrompt();
    const { answer } = claimed;
    const toolName = claimed.entry.request.toolName;
    return answer.kind === "permission"
      ? { toolName, answer: answer.decision.decision }
      : { toolName, answer: "question" };
  }

  /** The runtime's `canUseTool` for a tool call of one of its runs. */
  canUseTool(
    toolName: string,
    input: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<PermissionResult> {
    if (this.core.ended) return Promise.resolve(DENY_FOR_STOP);
    const request = this.core.prompts.request(toolName, input, {
      ...options,
      planApproval: this.planApproval(),
    });
    if (request.kind === "verdict") {
      if (request.verdict.stop !== undefined) this.finish.fail(request.verdict.stop);
      return Promise.resolve(request.verdict.result);
    }
    this.calls.set(request.entry, { runId: options.runId, toolUseId: options.toolUseID });
    // The runtime gave up the call (its turn was interrupted, the process ended).
    options.signal.addEventListener("abort", () => this.withdraw(request.entry), { once: true });
    this.showNext();
    return request.result;
  }

  /**
   * A peer's prompt from a delegated call of one of its runs (docs/peers.md): shown like any
   * prompt; resolves with the caller's answer (`allow`, its parts in `updatedInput.parts`) or a
   * denial (the task ended, the input timeout, the call gave up).
   */
  delegatedInput(
    request: Extract<InputRequest, { kind: "delegated" }>,
    signal: AbortSignal,
  ): Promise<PermissionResult> {
    if (this.core.ended) return Promise.resolve(DENY_FOR_STOP);
    const { entry, result } = this.core.prompts.requestDelegated(request);
    signal.addEventListener("abort", () => this.withdraw(entry), { once: true });
    this.showNext();
    return result;
  }

  /**
   * Shows the oldest prompt the client has not seen, if the task is not showing one. Parked with
   * an unshown head: the prompt before it was just settled, and the task stayed parked for it.
   * A prompt whose call's frame its run has not handled yet waits for it (prompt-order.ts): the
   * run tries again after each assistant frame, and when it ends.
   */
  showNext(): void {
    const core = this.core;
    const head = core.prompts.unshownHead();
    if (head === undefined || !promptMayShow(this.calls.get(head), core.runs)) return;
    if (core.phase.name !== "parked") {
      if (core.phase.name !== "running" && core.phase.name !== "waiting") return;
      if (!core.step({ type: "input_needed" })) return;
    }
    core.channel.status(
      status.inputRequired(core.ref, inputRequestContent(core.prompts.show(head))),
    );
  }

  /** A task created in plan mode awaits its plan's approval; approved, it goes on in this mode. */
  private planApproval(): { modeAfter: PermissionMode } | undefined {
    const { origin, env } = this.core;
    const modes = env.policy.permissionModes;
    if (origin.kind !== "client" || origin.settings.permissionMode !== "plan" || !modes) {
      return undefined;
    }
    return { modeAfter: modeAfterPlan(origin.settings.permissionMode, modes.workspace) };
  }

  /** The shown prompt's input timeout fired (or applies now: its answering request failed). */
  onInputTimeout(): void {
    // An answer on its way wins, unless its request fails (see unclaim).
    if (this.core.phase.name !== "parked" || this.core.prompts.deferTimeout()) return;
    // A peer's prompt unanswered ends that call with a tool error; Claude decides what next.
    const delegated = this.core.prompts.delegatedHead();
    if (delegated !== undefined) {
      const ms = this.core.env.policy.inputTimeoutMs ?? 0;
      const deny = { behavior: "deny", message: DELEGATION_TEXT.inputTimeout(ms) } as const;
      if (this.core.prompts.expire(delegated, deny) === "shown") this.leaveWithdrawn();
      return;
    }
    this.finish.fail(TEXT.inputTimeout(this.core.env.policy.inputTimeoutMs ?? 0));
  }

  /** A prompt was answered or withdrawn: the next one, or back to work (or done). */
  private afterPrompt(): void {
    this.showNext();
    if (this.core.phase.name === "waiting") this.finish.settle();
  }

  private withdraw(entry: InputRequestEntry): void {
    const prompts = this.core.prompts;
    const withdrawal = prompts.withdraw(entry);
    if (withdrawal === "settled_already") return;
    this.core.logger.debug(
      { toolName: entry.request.toolName },
      "task: prompt withdrawn by the runtime",
    );
    if (withdrawal === "shown") this.leaveWithdrawn();
  }

  private leaveWithdrawn(): void {
    if (this.leavePrompt(this.core.prompts.size > 0, status.working)) this.afterPrompt();
  }

  /**
   * The shown prompt is settled (answered or withdrawn): the step out of it; unless another
   * prompt waits to be shown in its place, back to work with `resumed`, then what was held.
   */
  private leavePrompt(
    promptWaiting: boolean,
    resumed: (ref: TaskRef) => TaskStatusUpdateEvent,
  ): boolean {
    const core = this.core;
    const runActive = core.runs.size > 0;
    if (!core.step({ type: "answered", runActive, promptWaiting })) return false;
    core.prompts.clearTimer();
    if (!promptWaiting) core.resume(resumed(core.ref));
    return true;
  }
}
