import type { Part } from "@a2a-js/sdk";
import type { DelegatedTaskRef } from "../../contract/delegation.js";
import type { TaskRef } from "../../contract/messages.js";
import { status } from "../../contract/statuses.js";
import type { UsageFigures } from "../../contract/usage.js";
import type { TaskCore } from "./task-core.js";
import type { TaskFinish } from "./task-finish.js";
import type { TaskInput } from "./task-input.js";

/** A peer's prompt, as a delegated call passes it up to the task's caller. */
export interface PeerPrompt {
  /** The peer's configured name. */
  readonly agent: string;
  readonly peerTaskId: string;
  /** The peer's prompt text and data parts, as it sent them. */
  readonly text: string;
  readonly data: readonly unknown[];
  /** The tool call that delegated (its name and input, as a permission request would carry). */
  readonly toolName: string;
  readonly input: Record<string, unknown>;
}

/** What our caller did with a peer's prompt. */
export type PeerPromptAnswer =
  | { readonly kind: "answer"; readonly parts: Part[] }
  | { readonly kind: "refused"; readonly reason: string };

/**
 * The face a task shows a delegated call of one of its runs (src/peers/): who it is, how deep
 * in a chain of delegations, its trace headers, and the four things a call does to it: link the
 * peer's task and show its progress, pass the peer's prompt up, add what the peer reported it
 * cost, and go down with it (the signal aborts when the task ends: cancel flows down).
 */
export interface DelegatingTask {
  readonly ref: TaskRef;
  /** Depth of the message that created the task (0: its client is not a delegating server). */
  readonly depth: number;
  traceHeaders(): Record<string, string>;
  /** A call begins: its signal aborts when the task ends; `done` when the call is over. */
  begin(): { readonly signal: AbortSignal; done(): void };
  /** The peer's task changed state (`what`: its status text): a `delegated` status. */
  progress(peer: DelegatedTaskRef, state: string, what: string): void;
  /** The peer asks: the task goes input-required with `delegated_input` until its caller answers. */
  ask(prompt: PeerPrompt, signal: AbortSignal): Promise<PeerPromptAnswer>;
  /** The peer's final status reported this usage: the task's `usage.delegated`. */
  addUsage(figures: UsageFigures): void;
}

/** The delegation side of one task (docs/peers.md), over its core, input and finish. */
export class TaskDelegation implements DelegatingTask {
  private readonly linked: DelegatedTaskRef[] = [];

  constructor(
    private readonly core: TaskCore,
    private readonly input: TaskInput,
    private readonly finish: TaskFinish,
  ) {}

  get ref(): TaskRef {
    return this.core.ref;
  }

  get depth(): number {
    const origin = this.core.origin;
    return origin.kind === "client" ? (origin.depth ?? 0) : 0;
  }

  traceHeaders(): Record<string, string> {
    return this.core.span.headers();
  }

  begin(): { readonly signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    if (this.core.ended) controller.abort();
    else this.core.peerCalls.add(controller);
    return { signal: controller.signal, done: () => this.core.peerCalls.delete(controller) };
  }

  progress(peer: DelegatedTaskRef, state: string, what: string): void {
    if (!this.linked.some((l) => l.agent === peer.agent && l.taskId === peer.taskId)) {
      this.linked.push(peer);
    }
    this.core.progress(status.delegated(this.core.ref, peer, state, what, [...this.linked]));
  }

  async ask(prompt: PeerPrompt, signal: AbortSignal): Promise<PeerPromptAnswer> {
    const result = await this.input.delegatedInput(
      { kind: "delegated", ...prompt, data: [...prompt.data] },
      signal,
    );
    if (result.behavior === "deny") return { kind: "refused", reason: result.message };
    const parts = result.updatedInput?.parts;
    return Array.isArray(parts)
      ? { kind: "answer", parts: parts as Part[] }
      : { kind: "refused", reason: "the answer had no parts" };
  }

  addUsage(figures: UsageFigures): void {
    this.finish.addDelegated(figures);
    this.core.env.chargeDelegated?.(this.core.conversation, figures.costUsd);
  }
}
