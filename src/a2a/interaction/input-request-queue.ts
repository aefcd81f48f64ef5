import type { Message } from "@a2a-js/sdk";
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { parseAnswer, type Answer, type InputRequest } from "./answers.js";

/** One question or permission request of a run, waiting for the client. */
export interface InputRequestEntry {
  readonly request: InputRequest;
  /** The message that reserved this input request, and its answer, parsed once at admission. */
  claim: { readonly messageId: string; readonly answer: Answer } | undefined;
  /** Published to the client (only the head of the queue ever is). */
  shown: boolean;
}

interface Waiting {
  readonly entry: InputRequestEntry;
  readonly resolve: (result: PermissionResult) => void;
}

/**
 * The input requests one task's run is waiting on, in arrival order. Parallel tool calls and parallel
 * subagents ask at the same time; the client sees one at a time (the head), and every input request is
 * settled exactly once: by its answer, or by a stop, a cancel, a timeout or the runtime
 * withdrawing it. None is lost, none is left pending.
 */
export class InputRequestQueue {
  private readonly waiting: Waiting[] = [];

  get head(): InputRequestEntry | undefined {
    return this.waiting[0]?.entry;
  }

  get size(): number {
    return this.waiting.length;
  }

  /** Queues a request; the promise is what the runtime's `canUseTool` awaits. */
  add(request: InputRequest): { entry: InputRequestEntry; result: Promise<PermissionResult> } {
    const entry: InputRequestEntry = { request, claim: undefined, shown: false };
    const result = new Promise<PermissionResult>((resolve) => {
      this.waiting.push({ entry, resolve });
    });
    return { entry, result };
  }

  /**
   * Reserves the head input request for one answering message. Returns why it cannot (nothing is
   * reserved then): nothing is shown, another message already answers it, or the answer is
   * unreadable.
   */
  claim(message: Pick<Message, "parts" | "messageId">): string | undefined {
    const head = this.head;
    if (head === undefined || !head.shown) return "it is not waiting for an answer";
    if (head.claim !== undefined) return "another message is already answering it";
    try {
      head.claim = { messageId: message.messageId, answer: parseAnswer(head.request, message) };
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }

  /** Undoes a claim whose request failed before it could answer. True if it held the head. */
  unclaim(messageId: string): boolean {
    const head = this.head;
    if (head?.claim?.messageId !== messageId) return false;
    head.claim = undefined;
    return true;
  }

  claimedBy(messageId: string): boolean {
    return this.head?.claim?.messageId === messageId;
  }

  /** Settles one input request; false if it was settled already. */
  settle(entry: InputRequestEntry, result: PermissionResult): boolean {
    const index = this.waiting.findIndex((w) => w.entry === entry);
    if (index < 0) return false;
    const [waiting] = this.waiting.splice(index, 1);
    waiting?.resolve(result);
    return true;
  }

  /** Settles every input request still waiting (a stop, a cancel, the end of the run). */
  settleAll(result: PermissionResult): number {
    const all = this.waiting.splice(0);
    for (const w of all) w.resolve(result);
    return all.length;
  }
}
