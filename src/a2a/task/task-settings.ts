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

export type SettingsRequest =
  | { readonly ok: true; readonly settings: TurnSettings }
  | { readonly ok: false; readonly reason: string };

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
    return { ok: false, reason: TEXT.modelNotAllowed(model, models) };
  }
  const efforts = effortsAllowed(policy);
  if (effort !== undefined && (!isEffortLevel(effort) || !efforts.includes(effort))) {
    return { ok: false, reason: TEXT.effortNotAllowed(effort, efforts) };
  }
  return {
    ok: true,
    settings: { ...(model !== undefined && { model }), ...(effort !== undefined && { effort }) },
  };
}

/** What a message may choose: its model and effort, its sandbox; an unset policy checks nothing. */
export interface TaskPolicies {
  readonly models?: ModelPolicy | undefined;
  readonly sandbox?: SandboxPolicy | undefined;
}

/**
 * Everything a message chooses for its task: `requestedSettings` under `models`, and under
 * `sandbox` its `metadata.sandbox` (`src/sandbox/narrowing.ts`: narrower only). Pure.
 */
export function taskSettings(
  metadata: Readonly<Record<string, unknown>> | undefined,
  policies: TaskPolicies,
): SettingsRequest {
  const chosen: SettingsRequest = policies.models
    ? requestedSettings(metadata, policies.models)
    : { ok: true, settings: {} };
  if (!chosen.ok || policies.sandbox === undefined) return chosen;
  const sandbox = requestedSandbox(metadata?.[SANDBOX_KEY], policies.sandbox);
  if (!sandbox.ok) return sandbox;
  return {
    ok: true,
    settings: { ...chosen.settings, ...(sandbox.overlay && { sandbox: sandbox.overlay }) },
  };
}
