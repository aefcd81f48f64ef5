import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { sandboxOn, strictConflict } from "./preset.js";
import { refuse, type Checked } from "../common/refusal.js";

/**
 * A task's `metadata.sandbox`: what it may ask of its workspace's sandbox. It may narrow it,
 * never widen it. Pure: the request guard refuses before any task exists, the executor runs the
 * task with the overlay (the runtime merges it over the process's sandbox, combining lists, so an
 * overlay can only add: `docs/sandbox.md`).
 */

export const SANDBOX_KEY = "sandbox";

/** What a workspace's sandbox is, for the decision. */
export interface SandboxPolicy {
  /** The workspace's own settings (undefined: off). */
  readonly base: SandboxSettings | undefined;
  /** The workspace's `"strict"` preset, expanded (its server files, no allowed domains). */
  readonly strict: SandboxSettings;
  /** Whether the OS mechanism was found at startup. */
  readonly available: boolean;
}

export type SandboxRequest = Checked<{ readonly overlay: SandboxSettings | undefined }>;

/**
 * The keys a task may add, each a list the runtime combines with the workspace's. A map: the
 * request is the caller's JSON, whose keys may be `__proto__` or `constructor`, and a lookup in
 * an object literal would find its prototype's members there.
 */
const NARROWING: ReadonlyMap<string, readonly string[]> = new Map([
  ["network", ["deniedDomains"]],
  ["filesystem", ["denyRead", "denyWrite"]],
]);

const HOW =
  'a task may ask for "strict", or add network.deniedDomains, filesystem.denyRead or ' +
  'filesystem.denyWrite (metadata.sandbox: { "preset": "strict", "network": { "deniedDomains": [...] } })';

const refused = (what: string): SandboxRequest => refuse(`metadata.sandbox: ${what}; ${HOW}.`);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string" && x.trim() !== "");

/** The overlay of a task's `metadata.sandbox` over `policy`, or why it is refused. Pure. */
export function requestedSandbox(requested: unknown, policy: SandboxPolicy): SandboxRequest {
  if (requested === undefined) return { ok: true, overlay: undefined };
  const object: Record<string, unknown> | undefined =
    requested === "strict" ? { preset: "strict" } : isRecord(requested) ? requested : undefined;
  if (object === undefined) return refused(`${JSON.stringify(requested)} is not a narrowing`);
  // Own keys only (`Object.hasOwn`): an inherited `preset` is not the caller's.
  const preset = Object.hasOwn(object, "preset") ? object.preset : undefined;
  const rest = Object.entries(object).filter(([key]) => key !== "preset");
  if (preset !== undefined && preset !== "strict") {
    return refused(`preset ${JSON.stringify(preset)} is not a preset`);
  }
  const additions: { network?: Record<string, string[]>; filesystem?: Record<string, string[]> } =
    {};
  for (const [section, value] of rest) {
    const allowed = NARROWING.get(section);
    if (allowed === undefined || !isRecord(value)) {
      return refused(`${section} would widen the sandbox or cannot be set per task`);
    }
    for (const [key, list] of Object.entries(value)) {
      if (!allowed.includes(key)) {
        return refused(`${section}.${key} would widen the sandbox or cannot be set per task`);
      }
      if (!isStrings(list)) return refused(`${section}.${key}: expected an array of strings`);
      (additions[section as keyof typeof additions] ??= {})[key] = list;
    }
  }
  if (preset === "strict") return strictOverlay(policy, additions);
  if (!sandboxOn(policy.base)) {
    return refused(
      'the workspace\'s sandbox is off, so a deny list would change nothing: ask for "strict"',
    );
  }
  return { ok: true, overlay: additions };
}

/**
 * `"strict"` over the workspace's sandbox. What the workspace allows besides the preset is kept
 * (an overlay cannot remove it): its allowed domains, and a Bash prompt if it has one. A sandbox
 * with something "strict" refuses cannot be made strict by an overlay, so that is refused too.
 */
function strictOverlay(
  policy: SandboxPolicy,
  additions: { network?: Record<string, string[]>; filesystem?: Record<string, string[]> },
): SandboxRequest {
  if (!policy.available) return refused("the sandbox cannot run on this server");
  const conflict = policy.base === undefined ? undefined : strictConflict(policy.base);
  if (conflict !== undefined) {
    return refused(`the workspace's sandbox cannot be made strict per task (${conflict})`);
  }
  const { autoAllowBashIfSandboxed: _autoAllow, ...strict } = policy.strict;
  const overlay: SandboxSettings = {
    ...strict,
    // A workspace whose Bash asks first keeps asking: auto-allowing would widen it.
    ...(policy.base?.autoAllowBashIfSandboxed === true && { autoAllowBashIfSandboxed: true }),
    network: {
      strictAllowlist: true,
      ...(additions.network?.deniedDomains && { deniedDomains: additions.network.deniedDomains }),
    },
    filesystem: {
      denyRead: [...(strict.filesystem?.denyRead ?? []), ...(additions.filesystem?.denyRead ?? [])],
      denyWrite: [
        ...(strict.filesystem?.denyWrite ?? []),
        ...(additions.filesystem?.denyWrite ?? []),
      ],
    },
  };
  return { ok: true, overlay };
}
