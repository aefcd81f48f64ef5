import { createHash, randomUUID } from "node:crypto";
import { Role, type Message, type Task } from "@a2a-js/sdk";
import { A2AError } from "@a2a-js/sdk/errors";
import { ServerCallContext, STATE_HEADERS_KEY, type A2ARequestHandler } from "@a2a-js/sdk/server";
import { CONTROL_EXTENSION_URI } from "../contract/control.js";
import { DELIVER_KEY } from "../contract/delivery.js";
import { LIMIT_REASON } from "../contract/limits.js";
import { rawPart, textPart } from "../contract/messages.js";
import { IDEMPOTENCY_KEY_HEADER } from "../contract/replay.js";
import { CallerUser, callerName, type Caller } from "../identity/caller.js";
import type { TriggerDeliver, WebhookTrigger } from "../config/triggers-schema.js";
import type { TriggerEvent } from "./event.js";
import { renderPrompt } from "./template.js";

/**
 * One firing: the event becomes an ordinary A2A task, sent through the request handler as the
 * trigger's caller, so every guard, limit and idempotent-send check applies as to any client.
 */

/** The attached payload's file name (in the task's inbox folder). */
const PAYLOAD_FILE = "payload.json";

export type Firing =
  | { readonly outcome: "started"; readonly taskId: string; readonly contextId: string }
  | { readonly outcome: "duplicate"; readonly taskId: string; readonly contextId: string }
  | { readonly outcome: "budget" | "limited" | "refused"; readonly reason: string };

/** The conversation of a subject: the same id for each event about it, from nothing else. Pure. */
export function subjectContextId(trigger: string, subject: string): string {
  const h = createHash("sha256").update(`${trigger}\u0000${subject}`).digest("hex");
  // Shaped like a UUID (version 8: made by the application) so clients show it as any other.
  const variant = ((parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The message a firing sends. Pure but for its fresh message id. */
export function firingMessage(
  name: string,
  trigger: WebhookTrigger,
  event: TriggerEvent,
  payload: unknown,
  body: Buffer,
): Message {
  const prompt = renderPrompt(trigger.prompt, {
    trigger: name,
    event,
    payload,
    maxFieldChars: trigger.maxFieldChars,
    attached: `as the file ${PAYLOAD_FILE}`,
  });
  const contextId =
    trigger.conversation === "subject" && event.subject !== undefined
      ? subjectContextId(name, event.subject)
      : "";
  return {
    messageId: randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_USER,
    // The payload as a file, not a data part: a data part is put in the prompt whole, uncapped
    // and unquoted; a file is read only if Claude needs it.
    parts: [textPart(prompt), rawPart(body, "application/json", PAYLOAD_FILE)],
    metadata: {
      origin: "trigger",
      trigger: name,
      eventId: event.deliveryId,
      ...deliverMetadata(trigger.deliver),
    },
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A trigger's `deliver` as a firing's `metadata.deliver`, or nothing. Pure. */
export function deliverMetadata(deliver: TriggerDeliver): Record<string, unknown> {
  return deliver === undefined ? {} : { [DELIVER_KEY]: deliver };
}

/**
 * A call of the request handler as the trigger's caller, its delivery id the idempotency key. A
 * message asking for a delivery activates the control extension, as a client's A2A-Extensions
 * header would: the guard refuses `metadata.deliver` without it.
 */
function firingContext(name: string, deliveryId: string, message: Message): ServerCallContext {
  const caller: Caller = { kind: "trigger", name };
  const control = message.metadata?.[DELIVER_KEY] !== undefined;
  return new ServerCallContext({
    ...(control && { requestedExtensions: [CONTROL_EXTENSION_URI] }),
    user: new CallerUser(caller),
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, { [IDEMPOTENCY_KEY_HEADER]: `trigger:${name}:${deliveryId}` }],
      ["caller", callerName(caller)],
    ]),
  });
}

/** Sends the firing; a repeated delivery answers with its first task and starts nothing. */
export async function fire(
  handler: A2ARequestHandler,
  name: string,
  message: Message,
  deliveryId: string,
  push?: { readonly url: string; readonly token: string },
): Promise<Firing> {
  let result: Message | Task;
  try {
    result = await handler.sendMessage(
      {
        tenant: "",
        message,
        configuration: {
          acceptedOutputModes: [],
          taskPushNotificationConfig: push && {
            tenant: "",
            id: "",
            taskId: "",
            url: push.url,
            token: push.token,
            authentication: undefined,
          },
          returnImmediately: true,
        },
        metadata: undefined,
      },
      firingContext(name, deliveryId, message),
    );
  } catch (err) {
    return refusal(err);
  }
  if (!("status" in result)) return { outcome: "refused", reason: "answered with a message" };
  // The idempotent send answers a repeat with the first send's task, whose message is not ours.
  const ours = result.history.some((m) => m.messageId === message.messageId);
  return {
    outcome: ours ? "started" : "duplicate",
    taskId: result.id,
    contextId: result.contextId,
  };
}

function refusal(err: unknown): Firing {
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof A2AError) {
    const code = (err as { reason?: unknown }).reason;
    if (code === LIMIT_REASON.dailyBudgetUsd) return { outcome: "budget", reason };
    if (code === LIMIT_REASON.tasksPerMinute || code === LIMIT_REASON.concurrentTasks) {
      return { outcome: "limited", reason };
    }
  }
  return { outcome: "refused", reason };
}
