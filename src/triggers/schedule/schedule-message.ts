import { randomUUID } from "node:crypto";
import { Role, type Message } from "@a2a-js/sdk";
import { textPart } from "../../contract/messages.js";
import { TEMPLATE_VARIABLE, type ScheduleTrigger } from "../../config/triggers-schema.js";
import { deliverMetadata, subjectContextId } from "../fire.js";

/**
 * The message a schedule's firing sends (docs/triggers.md "Schedules"): its prompt is the
 * operator's own template, so nothing in it is quoted as untrusted; it opens by saying that no
 * person is there. Pure but for its fresh message id.
 */

/** How the firing came: its period, a period missed while no server ran, or an operator. */
export type FiringWay = "scheduled" | "catch-up" | "manual";

export interface ScheduleFiring {
  readonly name: string;
  readonly trigger: ScheduleTrigger;
  /** The period's time (a manual firing's: when it was asked). */
  readonly time: Date;
  readonly way: FiringWay;
  /** The row's key, the task's `metadata.eventId`. */
  readonly key: string;
}

/** `2026-12-07 03:00:00` in the time zone. Pure. */
export function localTime(time: Date, timeZone: string): string {
  // Sweden's locale writes the ISO order; the zone's name follows.
  const text = new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    dateStyle: "short",
    timeStyle: "medium",
  }).format(time);
  return `${text} ${timeZone}`;
}

function variables(f: ScheduleFiring): Readonly<Record<string, string>> {
  const timeZone = f.trigger.timeZone ?? "UTC";
  return {
    trigger: f.name,
    "schedule.name": f.name,
    "schedule.time": f.time.toISOString(),
    "schedule.localTime": localTime(f.time, timeZone),
    "schedule.timeZone": timeZone,
    "schedule.cron": f.trigger.cron,
    "schedule.firing": f.way,
  };
}

/** The prompt: what started the task, then the template with its variables replaced. Pure. */
export function schedulePrompt(f: ScheduleFiring): string {
  const values = variables(f);
  // The config refused any other variable: `(none)` is never reached but keeps this total.
  const body = f.trigger.prompt.replace(
    TEMPLATE_VARIABLE,
    (_whole, name: string) => values[name] ?? "(none)",
  );
  const when =
    f.way === "manual"
      ? `fired by an operator at ${values["schedule.localTime"]}`
      : `for ${values["schedule.localTime"]}${f.way === "catch-up" ? ", missed while the server was down" : ""}`;
  return (
    `This task was started by the schedule "${f.name}" (cron "${f.trigger.cron}"), ${when}, ` +
    `not by a person: nobody is there to answer a question.\n\n${body}`
  );
}

export function scheduleMessage(f: ScheduleFiring): Message {
  return {
    messageId: randomUUID(),
    contextId:
      f.trigger.conversation === "same" ? subjectContextId(f.name, `schedule:${f.name}`) : "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [textPart(schedulePrompt(f))],
    metadata: {
      origin: "trigger",
      trigger: f.name,
      eventId: f.key,
      ...deliverMetadata(f.trigger.deliver),
    },
    extensions: [],
    referenceTaskIds: [],
  };
}
