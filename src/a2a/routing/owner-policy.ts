import type { Message, Task } from "@a2a-js/sdk";
import { TRIGGER_ORIGIN } from "../../contract/kinds.js";
import { newTask, type TaskRef } from "../../contract/messages.js";
import { triggerOfScope } from "../../identity/caller.js";
import type { TaskEnvironment } from "../task/environment.js";
import type { ServerTask } from "../task/server-task.js";
import type { ExecutorOptions } from "./executor-options.js";

/** What differs for a task by its caller: a trigger's (`trigger:<name>`, docs/triggers.md). */

/**
 * What a task of `owner` runs with: a trigger's task (`trigger:<name>`, no human there) has its
 * trigger's permission prompts, "deny" unless the trigger says otherwise.
 */
export function environmentOf(
  env: TaskEnvironment<ServerTask>,
  owner: string,
  options: Pick<ExecutorOptions, "triggerPrompts">,
): TaskEnvironment<ServerTask> {
  const trigger = triggerOfScope(owner);
  if (trigger === undefined) return env;
  const permissionPrompts = options.triggerPrompts?.(trigger) ?? "deny";
  return { ...env, policy: { ...env.policy, permissionPrompts } };
}

/** A new task's metadata: a trigger's carries its origin, name and event id (docs/triggers.md). */
function originMetadata(owner: string, message: Message): Record<string, unknown> {
  const trigger = triggerOfScope(owner);
  if (trigger === undefined) return {};
  const eventId: unknown = message.metadata?.eventId;
  return {
    origin: TRIGGER_ORIGIN,
    trigger,
    ...(typeof eventId === "string" && { eventId }),
  };
}

/** A new task as stored first: a trigger's with its origin in its metadata. */
export const firstTask = (ref: TaskRef, owner: string, message: Message): Task =>
  newTask(ref, message, originMetadata(owner, message));
