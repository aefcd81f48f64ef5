import { randomUUID } from "node:crypto";
import type { Task } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import {
  callContextOf,
  parseConversationKey,
  type ConversationKey,
} from "../../identity/conversation.js";
import { AUTONOMOUS_ORIGIN } from "../../contract/kinds.js";
import { agentMessage, newTask, textPart, type TaskRef } from "../../contract/messages.js";
import { TEXT } from "../../contract/texts.js";
import type { TaskChannel } from "../channel/task-channel.js";
import { openChannel, type TaskOutlets } from "./task-channels.js";

/**
 * The stored record an autonomous task starts with: its intro message, which references the
 * task whose background work caused the wake (if one did), and `metadata.origin: "autonomous"`.
 */
export function autonomousRecord(ref: TaskRef, from: string | undefined): Task {
  const intro = agentMessage(ref, [textPart(TEXT.autonomousStart(from))]);
  intro.referenceTaskIds = from === undefined ? [] : [from];
  return {
    ...newTask(ref, intro),
    metadata: { origin: AUTONOMOUS_ORIGIN, ...(from !== undefined && { referenceTaskId: from }) },
  };
}

/**
 * Whose an autonomous task is (its owner, for the stores' scoping): the caller of the task whose
 * work caused the wake, else the conversation's latest caller, else the conversation's owner.
 */
export function wakeCaller(
  source: ServerCallContext | undefined,
  latest: ServerCallContext | undefined,
  owner: string,
): ServerCallContext {
  return source ?? latest ?? callContextOf(owner);
}

/** The task whose background work caused a wake, as far as the wake's new task needs it. */
export interface WakeSource {
  readonly ref: TaskRef;
  readonly channel: Pick<TaskChannel, "callContext">;
}

export interface AutonomousOptions extends TaskOutlets {
  readonly logger: Logger;
}

/** A new autonomous task: its channel is open and its record published; nothing runs it yet. */
export interface AutonomousOpening {
  readonly ref: TaskRef;
  readonly channel: TaskChannel;
  readonly logger: Logger;
  readonly referenceTaskId: string | undefined;
}

/**
 * A wake no live task takes becomes a task of its own in the conversation (docs/tasks.md "Background
 * work"): owned by its caller (`wakeCaller`), referencing the task whose work caused it, with that
 * task's push configs, so a client hears about work that finished after its stream ended. It
 * keeps the latest caller of each conversation, until the conversation's session closes.
 */
export class AutonomousTasks {
  /** The latest call context of each conversation: the caller of a wake nothing attributes. */
  private readonly lastCaller = new Map<ConversationKey, ServerCallContext>();

  constructor(private readonly options: AutonomousOptions) {}

  /** A client's message began a task in the conversation. */
  noteCaller(conversation: ConversationKey, context: ServerCallContext): void {
    this.lastCaller.set(conversation, context);
  }

  /** The conversation's session closed: it wakes no more. */
  forget(conversation: ConversationKey): void {
    this.lastCaller.delete(conversation);
  }

  /** How many callers it keeps (tests: it must not grow without bound). */
  get retainedCallers(): number {
    return this.lastCaller.size;
  }

  /** Opens the task for a wake of `conversation`; undefined if the key names no conversation. */
  open(
    conversation: ConversationKey,
    runId: string,
    source: WakeSource | undefined,
  ): AutonomousOpening | undefined {
    const parsed = parseConversationKey(conversation);
    if (parsed === undefined) {
      this.options.logger.error({ conversation, runId }, "wake: not a conversation key; ignored");
      return undefined;
    }
    const { contextId } = parsed;
    const latest = this.lastCaller.get(conversation);
    const context = wakeCaller(source?.channel.callContext, latest, parsed.owner);
    const ref: TaskRef = { taskId: randomUUID(), contextId };
    const logger = this.options.logger.child({ taskId: ref.taskId, contextId, runId });
    const channel = openChannel(this.options, ref, logger);
    channel.attachDetached(
      this.options.busManager.createOrGetByTaskId(ref.taskId, context),
      context,
    );
    const from = source?.ref.taskId;
    if (from !== undefined && this.options.push !== undefined) {
      channel.deferWrites(this.inheritPushConfigs(from, ref.taskId, context, logger));
    }
    channel.task(autonomousRecord(ref, from));
    return { ref, channel, logger, referenceTaskId: from };
  }

  private async inheritPushConfigs(
    from: string,
    to: string,
    context: ServerCallContext,
    logger: Logger,
  ): Promise<void> {
    const store = this.options.push?.store;
    if (store === undefined) return;
    try {
      for (const config of await store.load(from, context)) {
        await store.save(to, context, { ...config, taskId: to });
      }
    } catch (err) {
      logger.warn({ err, from }, "push configs could not be inherited");
    }
  }
}
