import type { TurnSettings } from "../../claude/index.js";
import { EFFORT_LEVELS } from "../../config/claude-options-schema.js";
import {
  EFFORT_KEY,
  effortsAllowed,
  MODEL_KEY,
  modelsAllowed,
  type ModelPolicy,
} from "../../contract/task-options.js";
import { TEXT } from "../../contract/texts.js";
import { requestedSandbox, SANDBOX_KEY, type SandboxPolicy } from "../../sandbox/narrowing.js";
import { requestedPermissionMode, type PermissionModePolicy } from "../control/permission-mode.js";
import { refuse, type Checked } from "../../common/refusal.js";

export type SettingsRequest = Checked<{ readonly settings: TurnSettings }>;

const isEffortLevel = (value: unknown): value is NonNullable<TurnSettings["effort"]> =>
  (EFFORT_LEVELS as readonly unknown[]).includes(value);

/**
 * The model and effort of the task a message creates: its `metadata.model` and
 * `metadata.effort`, each honoured only when the policy allows it (the configured default
 * always is); absent, the session's defaults apply. Pure: the request guard refuses with the
 * reason before any task exists, the executor runs with the settings.
 */
export function requestedSettings(
  metadata: Readonly<Record<string, unknown>> | undefined,
  policy: ModelPolicy,
): SettingsRequest {
  const model = metadata?.[MODEL_KEY];
  const effort = metadata?.[EFFORT_KEY];
  const models = modelsAllowed(policy);
  if (model !== undefined && (typeof model !== "string" || !models.includes(model))) {
    return refuse(TEXT.modelNotAllowed(model, models));
  }
  const efforts = effortsAllowed(policy);
  if (effort !== undefined && (!isEffortLevel(effort) || !efforts.includes(effort))) {
    return refuse(TEXT.effortNotAllowed(effort, efforts));
  }
  return {
    ok: true,
    settings: { ...(model !== undefined && { model }), ...(effort !== undefined && { effort }) },
  };
}

/**
 * What a message may choose: its model and effort, its sandbox, its permission mode (the
 * control extension's); an unset policy checks nothing.
 */
export interface TaskPolicies {
  readonly models?: ModelPolicy | undefined;
  readonly sandbox?: SandboxPolicy | undefined;
  readonly permissionModes?: PermissionModePolicy | undefined;
}

/**
 * Everything a message chooses for its task: `requestedSettings` under `models`, and under
 * `sandbox` its `metadata.sandbox` (`src/sandbox/narrowing.ts`: narrower only). Pure.
 */
export function taskSettings(
  metadata: Readonly<Record<string, unknown>> | undefined,
  policies: TaskPolicies,
  /** The control extension is active on the request (the executor: the guard checked it). */
  controlActive = true,
): SettingsRequest {
  const chosen: SettingsRequest = policies.models
    ? requestedSettings(metadata, policies.models)
    : { ok: true, settings: {} };
  if (!chosen.ok) return chosen;
  const sandbox =
    policies.sandbox === undefined
      ? undefined
      : requestedSandbox(metadata?.[SANDBOX_KEY], policies.sandbox);
  if (sandbox !== undefined && !sandbox.ok) return sandbox;
  const mode =
    policies.permissionModes === undefined
      ? undefined
      : requestedPermissionMode(metadata, policies.permissionModes, controlActive);
  if (mode !== undefined && !mode.ok) return mode;
  return {
    ok: true,
    settings: {
      ...chosen.settings,
      ...(sandbox?.overlay && { sandbox: sandbox.overlay }),
      ...(mode?.mode && { permissionMode: mode.mode }),
    },
  };
}
