import type { ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { newTask } from "../../contract/messages.js";
import { parseConversationKey } from "../../identity/conversation.js";
import { actingOperator } from "../../identity/operators.js";
import type { ServerTask } from "../task/server-task.js";
import type { RestartClaims } from "./restart-claims.js";

export interface AnswerTurn {
  /** The task live here, if any. */
  readonly task: ServerTask | undefined;
  readonly restartClaims: RestartClaims;
  /** Answers admitted by the request guard that could not be delivered, by message id. */
  readonly refusals: Map<string, string>;
  readonly logger: Logger;
  /** Starts the task's next turn with `prompt` (an answer to a prompt a restart kept). */
  begin(prompt: string): Promise<void>;
}

/**
 * A message for an existing task: the guard admitted it as the answer to the task's shown
 * prompt. Whatever happened since (a cancel, a timeout, the process dying), it either answers
 * that prompt or is refused: it never starts a run, and it publishes nothing on a task that
 * has moved on (the guard turns the refusal into the request's error). The one exception is a
 * prompt a restart kept (docs/tasks.md "Answers across a restart"): no run waits for it, so its
 * answer starts the task's next turn.
 */
export async function answerTask(
  ctx: RequestContext,
  bus: ExecutionEventBus,
  a: AnswerTurn,
): Promise<void> {
  const message = ctx.userMessage;
  const task = a.task;
  const resume = task ? undefined : a.restartClaims.take(ctx.taskId, message.messageId);
  if (resume !== undefined) {
    a.logger.info({ taskId: ctx.taskId }, "answer after a restart: a new turn");
    return a.begin(resume);
  }
  if (task === undefined || !task.isClaimedBy(message.messageId)) {
    const phase = task?.phase;
    const why =
      phase === undefined || phase.name === "ended"
        ? "it ended before this answer reached it"
        : "the request it answered is no longer pending";
    a.logger.info({ taskId: ctx.taskId, why }, "answer refused");
    a.refusals.set(message.messageId, why);
    return;
  }
  task.channel.attach(bus, ctx.context, message.messageId);
  // The stored task verbatim (a pure snapshot: still input-required), then `resumed`.
  task.channel.task(ctx.task ?? newTask(task.ref, message));
  const operator = actingOperator(ctx.context?.state);
  const answered = task.answer(message, operator);
  if (operator !== undefined && answered !== undefined) {
    a.logger.info(
      {
        taskId: ctx.taskId,
        owner: parseConversationKey(task.conversation)?.owner,
        operator,
        ...answered,
      },
      "operator answered a task of another caller",
    );
  }
  await task.whenTurnStops();
}
