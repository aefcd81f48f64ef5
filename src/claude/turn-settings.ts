import type { EffortLevel, PermissionMode, SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import type { NormalizedEvent } from "./normalized-event.js";
import { isPermissionMode } from "./permission-modes.js";

/**
 * The model and effort one prompt runs with. A field left out means the session's own default
 * (its `model` / `effort` option), not "whatever the process runs now": a turn that asks for
 * nothing after one that asked for another model goes back to the default.
 */
export interface TurnSettings {
  readonly model?: string | undefined;
  readonly effort?: EffortLevel | undefined;
  /**
   * What this prompt's task narrows the session's sandbox with: an overlay the runtime merges
   * over the process's `sandbox` option (`applyFlagSettings({ sandbox })`; lists are combined,
   * so an overlay can only add to them). Undefined: the session's own sandbox, no overlay.
   */
  readonly sandbox?: SandboxSettings | undefined;
  /**
   * The permission mode this prompt runs in (e.g. `plan`); undefined: the session's own. The
   * runtime may leave it by itself (an approved `ExitPlanMode`): the process then records the
   * mode the runtime reports, so the next prompt switches from what really runs.
   */
  readonly permissionMode?: PermissionMode | undefined;
}

/** What the live process must change before a prompt goes; empty when nothing does. */
export interface SettingsSwitch {
  /** Present: call `setModel` with this (undefined: the runtime's default model). */
  readonly model?: { readonly to: string | undefined };
  /** Present: `applyFlagSettings({ effortLevel })` (null: the model's default effort). */
  readonly effort?: { readonly to: EffortLevel | null };
  /** Present: `applyFlagSettings({ sandbox })` (null: drop the overlay). */
  readonly sandbox?: { readonly to: SandboxSettings | null };
  /** Present: `setPermissionMode` with this. */
  readonly permissionMode?: { readonly to: PermissionMode };
}

/** `wanted`, its gaps filled from the session's defaults. Pure. */
export function resolveSettings(wanted: TurnSettings, defaults: TurnSettings): TurnSettings {
  return {
    model: wanted.model ?? defaults.model,
    effort: wanted.effort ?? defaults.effort,
    // No default: a prompt that asks for no overlay runs with none.
    sandbox: wanted.sandbox,
    permissionMode: wanted.permissionMode ?? defaults.permissionMode,
  };
}

/** What to switch to go from the process's `current` settings to `next` (both resolved). Pure. */
export function settingsSwitch(current: TurnSettings, next: TurnSettings): SettingsSwitch {
  return {
    ...(next.model !== current.model && { model: { to: next.model } }),
    ...(next.effort !== current.effort && { effort: { to: next.effort ?? null } }),
    ...(JSON.stringify(next.sandbox) !== JSON.stringify(current.sandbox) && {
      sandbox: { to: next.sandbox ?? null },
    }),
    ...(next.permissionMode !== undefined &&
      next.permissionMode !== current.permissionMode && {
        permissionMode: { to: next.permissionMode },
      }),
  };
}

export const isNoSwitch = (s: SettingsSwitch): boolean =>
  s.model === undefined &&
  s.effort === undefined &&
  s.sandbox === undefined &&
  s.permissionMode === undefined;

/** A readable name of what a switch changes, for logs and errors. */
export function describeSwitch(s: SettingsSwitch): string {
  const parts = [
    ...(s.model === undefined ? [] : [`model ${s.model.to ?? "(default)"}`]),
    ...(s.effort === undefined ? [] : [`effort ${s.effort.to ?? "(default)"}`]),
    ...(s.sandbox === undefined
      ? []
      : [s.sandbox.to === null ? "the session's sandbox" : "a narrower sandbox"]),
    ...(s.permissionMode === undefined ? [] : [`permission mode ${s.permissionMode.to}`]),
  ];
  return parts.join(", ");
}

/**
 * The permission mode a frame says the runtime now runs in: its `system/status` frames carry it
 * (after `setPermissionMode`, and when the runtime leaves plan mode on an approved
 * `ExitPlanMode`). Undefined for every other frame. Pure.
 */
export function reportedPermissionMode(event: NormalizedEvent): PermissionMode | undefined {
  if (event.kind !== "metadata" || event.type !== "system" || event.subtype !== "status") {
    return undefined;
  }
  const mode = (event.raw as { permissionMode?: unknown } | null)?.permissionMode;
  return isPermissionMode(mode) ? mode : undefined;
}
