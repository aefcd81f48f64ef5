import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import {
  triggersOfKind,
  type TriggersConfig,
  type WebhookTrigger,
} from "../config/triggers-schema.js";
import type { FiringOutcome, LastFiring } from "../contract/triggers.js";
import { readEvent, type TriggerEvent } from "./event.js";
import { filterEvent, isPing } from "./filters.js";
import { fire, firingMessage } from "./fire.js";
import { firingCounter, type FiringCounter } from "./firing-metric.js";
import { manualEvent } from "./manual.js";
import { ResultPoster } from "./result-poster.js";
import { verifyDelivery, type Headers } from "./verify.js";

/**
 * A workspace's webhook triggers, whatever carries the request (docs/triggers.md): a delivery is
 * verified, parsed, filtered and fired, in that order, and answered with a status and a short
 * JSON body. One log line per delivery names the trigger, the event id and the outcome; never the
 * secret, never the payload.
 */

type Outcome =
  | "started"
  | "duplicate"
  | "filtered"
  | "refused"
  | "unverified"
  | "malformed"
  | "budget"
  | "limited";

export interface HookAnswer {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
}

interface ReceiverOptions {
  readonly triggers: TriggersConfig;
  /** The process environment the secrets are read from (`secretEnv`), at construction. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly handler: A2ARequestHandler;
  readonly logger: Logger;
  /** Where the firings' counter is registered (the agent's metrics). */
  readonly registry: Registry;
  /** Told of each delivery that reached a firing (the operator's listing keeps the last). */
  readonly onFiring?: (trigger: string, firing: LastFiring) => void;
  /** Unix milliseconds (the hmac timestamp's tolerance). */
  readonly now?: () => number;
  /** The console's URL (`<publicUrl>/console/`): result comments link each task there. */
  readonly consoleUrl?: string;
}

/** The status of each outcome (404, 413 are the binding's: no trigger, body too large). */
const STATUS: Readonly<Record<Outcome, number>> = {
  started: 202,
  duplicate: 200,
  filtered: 202,
  refused: 503,
  unverified: 401,
  malformed: 400,
  budget: 429,
  limited: 429,
};

export class TriggerReceiver {
  private readonly secrets = new Map<string, string>();
  private readonly firings: FiringCounter;
  private readonly now: () => number;
  private readonly results: ResultPoster;

  constructor(private readonly o: ReceiverOptions) {
    for (const [name, t] of triggersOfKind(o.triggers, "webhook")) {
      const secret = o.env[t.secretEnv];
      // Checked at startup (policy.ts): a trigger without its secret never gets this far.
      if (secret) this.secrets.set(name, secret);
    }
    this.now = o.now ?? Date.now;
    this.results = new ResultPoster({
      handler: o.handler,
      env: o.env,
      logger: o.logger,
      consoleUrl: o.consoleUrl ?? "/console/",
    });
    this.firings = firingCounter(o.registry);
  }

  /** The webhook trigger of this name, if the workspace has one (a schedule has no path). */
  trigger(name: string): WebhookTrigger | undefined {
    const t = Object.hasOwn(this.o.triggers, name) ? this.o.triggers[name] : undefined;
    return t?.kind === "webhook" ? t : undefined;
  }

  /** Counts and logs a delivery refused before it reached `receive` (413). */
  refuse(name: string, status: number, reason: string): HookAnswer {
    return this.answer(name, undefined, "malformed", { reason }, status);
  }

  async receive(name: string, headers: Headers, body: Buffer): Promise<HookAnswer> {
    const trigger = this.trigger(name);
    const secret = this.secrets.get(name);
    if (trigger === undefined || secret === undefined) {
      return { status: 404, body: { error: "not_found", message: `No trigger "${name}".` } };
    }
    const verdict = verifyDelivery(trigger.verify, secret, headers, body, {
      nowSeconds: Math.floor(this.now() / 1000),
      toleranceSeconds: trigger.toleranceSeconds,
    });
    if (!verdict.ok) return this.answer(name, undefined, "unverified", { reason: verdict.reason });
    const payload = parseObject(body);
    if (payload === undefined) {
      return this.answer(name, undefined, "malformed", { reason: "the body is not a JSON object" });
    }
    const read = readEvent(trigger.verify, headers, payload);
    if (!read.ok) return this.answer(name, undefined, "malformed", { reason: read.reason });
    const { event } = read;
    const filtered = isPing(trigger.verify, event)
      ? { pass: false as const, reason: "GitHub's ping (the webhook's test delivery)" }
      : filterEvent(trigger.filters, event);
    if (!filtered.pass) {
      return this.answer(name, event.deliveryId, "filtered", { reason: filtered.reason });
    }
    return this.fireEvent(name, trigger, event, payload, body);
  }

  /**
   * One firing now, by an operator (docs/triggers.md "Operating triggers"): a manual event with an
   * empty payload, fired, counted and logged exactly as a delivery; undefined for no such trigger.
   */
  async fireNow(name: string): Promise<HookAnswer | undefined> {
    const trigger = this.trigger(name);
    if (trigger === undefined) return undefined;
    return this.fireEvent(name, trigger, manualEvent(), {}, Buffer.from("{}"));
  }

  private async fireEvent(
    name: string,
    trigger: WebhookTrigger,
    event: TriggerEvent,
    payload: Record<string, unknown>,
    body: Buffer,
  ): Promise<HookAnswer> {
    const message = firingMessage(name, trigger, event, payload, body);
    const push = trigger.push && {
      url: trigger.push.url,
      token: (trigger.push.tokenEnv && this.o.env[trigger.push.tokenEnv]) || "",
    };
    const firing = await fire(this.o.handler, name, message, event.deliveryId, push);
    switch (firing.outcome) {
      case "started":
        this.results.watch(name, trigger, event, firing.taskId);
        return this.answer(name, event.deliveryId, firing.outcome, {
          taskId: firing.taskId,
          contextId: firing.contextId,
        });
      case "duplicate":
        return this.answer(name, event.deliveryId, firing.outcome, {
          taskId: firing.taskId,
          contextId: firing.contextId,
        });
      case "budget":
      case "limited":
      case "refused":
        return this.answer(name, event.deliveryId, firing.outcome, { reason: firing.reason });
    }
  }

  private answer(
    trigger: string,
    eventId: string | undefined,
    outcome: Outcome,
    detail: { reason?: string; taskId?: string; contextId?: string },
    status = STATUS[outcome],
  ): HookAnswer {
    this.firings.inc({ trigger, outcome });
    if (isFiring(outcome)) {
      this.o.onFiring?.(trigger, {
        at: new Date(this.now()).toISOString(),
        outcome,
        ...(detail.taskId !== undefined && { taskId: detail.taskId }),
      });
    }
    const level = outcome === "started" || outcome === "duplicate" ? "info" : "warn";
    this.o.logger[level](
      { trigger, ...(eventId !== undefined && { eventId }), outcome, ...detail },
      outcome === "budget"
        ? "trigger: daily budget reached, nothing started"
        : `trigger: ${outcome}`,
    );
    return {
      status,
      body: { outcome, trigger, ...(eventId !== undefined && { eventId }), ...detail },
    };
  }
}

/** Whether a delivery with this outcome reached the firing (verified, read, not filtered out). */
function isFiring(outcome: Outcome): outcome is FiringOutcome {
  switch (outcome) {
    case "started":
    case "duplicate":
    case "budget":
    case "limited":
    case "refused":
      return true;
    case "filtered":
    case "unverified":
    case "malformed":
      return false;
  }
}

/** The body as a JSON object, or undefined (not JSON, or not an object). */
function parseObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
