import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { PERMISSION_MODE_KEY, PLAN_TEXT } from "../../contract/plan.js";
import { CONTROL_EXTENSION_URI } from "../../contract/control.js";
import { refuse, type Checked } from "../../common/refusal.js";

/**
 * How far each permission mode lets Claude act without a person: `plan` changes nothing,
 * `dontAsk` runs only what is pre-approved, `default` asks, `acceptEdits` edits without asking,
 * `auto` lets a classifier approve, `bypassPermissions` approves everything. A task may narrow
 * its workspace's mode, never widen it.
 */
const WIDTH: Readonly<Record<PermissionMode, number>> = {
  plan: 0,
  dontAsk: 1,
  default: 2,
  acceptEdits: 3,
  auto: 4,
  bypassPermissions: 5,
};

const isMode = (value: unknown): value is PermissionMode =>
  typeof value === "string" && Object.hasOwn(WIDTH, value);

/** What a message may ask of its task's permission mode, from a workspace's config. */
export interface PermissionModePolicy {
  /** `claude.permissionMode`: the workspace's own, what a task runs in by default. */
  readonly workspace: PermissionMode;
  /** `claude.allowedPermissionModes`, without `plan` when `server.control.plan` is off. */
  readonly allowed: readonly PermissionMode[];
}

export type PermissionModeRequest = Checked<{ readonly mode: PermissionMode | undefined }>;

/**
 * A new task's `metadata.permissionMode`: absent, the workspace's mode (undefined); else one of
 * the allowlist, no wider than the workspace's mode, asked with the control extension active.
 * Pure: the request guard refuses with the reason before any task exists.
 */
export function requestedPermissionMode(
  metadata: Readonly<Record<string, unknown>> | undefined,
  policy: PermissionModePolicy,
  extensionActive: boolean,
): PermissionModeRequest {
  const asked = metadata?.[PERMISSION_MODE_KEY];
  if (asked === undefined || asked === null) return { ok: true, mode: undefined };
  if (!extensionActive) {
    return refuse(PLAN_TEXT.needsExtension(CONTROL_EXTENSION_URI));
  }
  if (!isMode(asked) || !policy.allowed.includes(asked)) {
    return refuse(PLAN_TEXT.notAllowed(asked, policy.allowed));
  }
  if (WIDTH[asked] > WIDTH[policy.workspace]) {
    return refuse(PLAN_TEXT.wider(asked, policy.workspace));
  }
  return { ok: true, mode: asked };
}

/**
 * The mode an approved plan is carried out in: the task's own when it asked for one that is not
 * `plan` (Claude entered plan mode by itself), else the workspace's. Pure.
 */
export function modeAfterPlan(
  taskMode: PermissionMode | undefined,
  workspace: PermissionMode,
): PermissionMode {
  return taskMode === undefined || taskMode === "plan" ? workspace : taskMode;
}
