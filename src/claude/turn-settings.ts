import type { EffortLevel, SandboxSettings } from "@anthropic-ai/claude-agent-sdk";

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
}

/** What the live process must change before a prompt goes; empty when nothing does. */
export interface SettingsSwitch {
  /** Present: call `setModel` with this (undefined: the runtime's default model). */
  readonly model?: { readonly to: string | undefined };
  /** Present: `applyFlagSettings({ effortLevel })` (null: the model's default effort). */
  readonly effort?: { readonly to: EffortLevel | null };
  /** Present: `applyFlagSettings({ sandbox })` (null: drop the overlay). */
  readonly sandbox?: { readonly to: SandboxSettings | null };
}

/** `wanted`, its gaps filled from the session's defaults. Pure. */
export function resolveSettings(wanted: TurnSettings, defaults: TurnSettings): TurnSettings {
  return {
    model: wanted.model ?? defaults.model,
    effort: wanted.effort ?? defaults.effort,
    // No default: a prompt that asks for no overlay runs with none.
    sandbox: wanted.sandbox,
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
  };
}

export const isNoSwitch = (s: SettingsSwitch): boolean =>
  s.model === undefined && s.effort === undefined && s.sandbox === undefined;

/** A readable name of what a switch changes, for logs and errors. */
export function describeSwitch(s: SettingsSwitch): string {
  const parts = [
    ...(s.model === undefined ? [] : [`model ${s.model.to ?? "(default)"}`]),
    ...(s.effort === undefined ? [] : [`effort ${s.effort.to ?? "(default)"}`]),
    ...(s.sandbox === undefined
      ? []
      : [s.sandbox.to === null ? "the session's sandbox" : "a narrower sandbox"]),
  ];
  return parts.join(", ");
}
