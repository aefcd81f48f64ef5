import { refuse, type Checked } from "../common/refusal.js";
import { isRecord } from "../common/json.js";
import {
  DELIVER_KEY,
  DELIVERY_TARGETS,
  DELIVERY_TEXT,
  type DeliveryTarget,
} from "../contract/delivery.js";
import type { DeliveryCheckConfig, DeliveryConfig } from "../config/delivery-schema.js";

/** What a workspace lets a message ask of a delivery (`claude.delivery`, `claude.isolation`). */
export interface DeliveryPolicy {
  readonly isolation: "shared" | "worktree";
  /** `claude.delivery`; unset: no task of the workspace may ask for one. */
  readonly config: DeliveryConfig | undefined;
}

/** A delivery as a task runs it: its checks (commands from the config), rounds and target. */
export interface DeliveryPlan {
  readonly target: DeliveryTarget;
  readonly checks: readonly DeliveryCheckConfig[];
  /** A review after green checks (docs/delivery.md "Review"). */
  readonly review: boolean;
  /** Fix rounds allowed (0: the checks run once, a red one fails the task). */
  readonly maxRounds: number;
}

export type DeliveryRequest = Checked<{ readonly plan: DeliveryPlan | undefined }>;

const NONE: DeliveryRequest = { ok: true, plan: undefined };
const KEYS = new Set(["target", "checks", "review", "maxRounds"]);

const isTarget = (value: unknown): value is DeliveryTarget =>
  (DELIVERY_TARGETS as readonly unknown[]).includes(value);

/**
 * A new task's `metadata.deliver`: absent (or false), no delivery; `true`, the workspace's
 * defaults; a target's name; or `{ target, checks, review, maxRounds }`, where `checks` names
 * configured checks (never a command) and `maxRounds` may lower the workspace's. Refused, in
 * this order: without the control extension, without `claude.delivery`, without worktree
 * isolation, a shape or key it does not take, an unknown target, one the workspace does not
 * allow, an unknown check, rounds out of range. Pure: the request guard
 * refuses with the reason (InvalidParams) before any task exists.
 */
export function requestedDelivery(
  metadata: Readonly<Record<string, unknown>> | undefined,
  policy: DeliveryPolicy,
  extensionActive: boolean,
  controlUri: string,
): DeliveryRequest {
  const asked = metadata?.[DELIVER_KEY];
  if (asked === undefined || asked === null || asked === false) return NONE;
  if (!extensionActive) return refuse(DELIVERY_TEXT.needsExtension(controlUri));
  const config = policy.config;
  if (config === undefined) return refuse(DELIVERY_TEXT.notConfigured);
  if (policy.isolation !== "worktree") return refuse(DELIVERY_TEXT.needsWorktree);
  const fields = fieldsOf(asked);
  if (!fields.ok) return fields;
  const { target = config.target, checks, review = config.review, maxRounds } = fields.fields;
  if (!isTarget(target)) return refuse(DELIVERY_TEXT.unknownTarget(target));
  if (!config.allowedTargets.includes(target)) {
    return refuse(DELIVERY_TEXT.targetNotAllowed(target, config.allowedTargets));
  }
  const chosen = chosenChecks(checks, config.checks);
  if (!chosen.ok) return chosen;
  if (typeof review !== "boolean") return refuse(DELIVERY_TEXT.badReview);
  const rounds = maxRounds ?? config.maxRounds;
  if (typeof rounds !== "number" || !Number.isInteger(rounds) || rounds < 0) {
    return refuse(DELIVERY_TEXT.badMaxRounds(config.maxRounds));
  }
  if (rounds > config.maxRounds) return refuse(DELIVERY_TEXT.badMaxRounds(config.maxRounds));
  return { ok: true, plan: { target, checks: chosen.checks, review, maxRounds: rounds } };
}

type Fields = Partial<Record<"target" | "checks" | "review" | "maxRounds", unknown>>;

function fieldsOf(asked: unknown): Checked<{ readonly fields: Fields }> {
  if (asked === true) return { ok: true, fields: {} };
  if (typeof asked === "string") return { ok: true, fields: { target: asked } };
  if (!isRecord(asked)) return refuse(DELIVERY_TEXT.badShape);
  for (const key of Object.keys(asked)) {
    if (!KEYS.has(key)) return refuse(DELIVERY_TEXT.unknownKey(key));
  }
  return { ok: true, fields: asked };
}

function chosenChecks(
  names: unknown,
  configured: readonly DeliveryCheckConfig[],
): Checked<{ readonly checks: readonly DeliveryCheckConfig[] }> {
  if (names === undefined) return { ok: true, checks: configured };
  if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) {
    return refuse(DELIVERY_TEXT.badChecks);
  }
  const known = configured.map((c) => c.name);
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined) return refuse(DELIVERY_TEXT.unknownCheck(unknown, known));
  return { ok: true, checks: configured.filter((c) => names.includes(c.name)) };
}
