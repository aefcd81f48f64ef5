import type { Message, Task } from "@a2a-js/sdk";
import type { Logger } from "pino";
import { isRestartParked, storedPrompt } from "../../contract/restart-parked.js";
import { restartAnswerPrompt } from "../interaction/restart-answer.js";

/**
 * Answers to prompts a restart kept (docs/tasks.md "Answers across a restart"): no task is live
 * for them, so the guard's claim is held here, one answer per task, with the new turn's prompt
 * its answer makes, until the executor starts that turn.
 */
export class RestartClaims {
  private readonly claims = new Map<string, { messageId: string; prompt: string }>();

  /** Reserves the stored task for this answer; returns why it cannot. */
  claim(
    taskId: string,
    message: Pick<Message, "parts" | "messageId">,
    stored: Pick<Task, "status"> | undefined,
  ): string | undefined {
    const prompt = isRestartParked(stored) ? storedPrompt(stored?.status?.message) : undefined;
    if (prompt === undefined) return "it is not waiting for an answer on this server";
    if (this.claims.has(taskId)) return "another message is already answering it";
    try {
      this.claims.set(taskId, {
        messageId: message.messageId,
        prompt: restartAnswerPrompt(prompt, message),
      });
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }

  /** The claimed answer's prompt, once, if `messageId` holds the claim. */
  take(taskId: string, messageId: string): string | undefined {
    const claim = this.claims.get(taskId);
    if (claim?.messageId !== messageId) return undefined;
    this.claims.delete(taskId);
    return claim.prompt;
  }

  /** The request ended without its turn starting: the claim goes. */
  release(taskId: string, messageId: string): void {
    if (this.claims.get(taskId)?.messageId === messageId) this.claims.delete(taskId);
  }
}

/**
 * The server is stopping: every parked task stays INPUT_REQUIRED in the store (nothing more is
 * published for it), for the next server to keep. Call before the sessions close. Returns the
 * ids of the tasks suspended.
 */
export function suspendParked(
  tasks: readonly { suspend(): boolean; readonly ref: { readonly taskId: string } }[],
  logger: Pick<Logger, "info">,
): string[] {
  const suspended = tasks.filter((task) => task.suspend()).map((task) => task.ref.taskId);
  if (suspended.length > 0) {
    logger.info(
      { tasks: suspended },
      `${suspended.length} task(s) stay waiting for an answer across the stop`,
    );
  }
  return suspended;
}
