import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { STRICT_FIXED } from "../config/sandbox-schema.js";

export { strictConflict } from "../config/sandbox-schema.js";

/**
 * `claude.sandbox` as the runtime gets it: the `"strict"` preset expanded, `"off"` as nothing.
 * Pure. The preset's table is in docs/sandbox.md; test/unit/sandbox/strict-table.test.ts holds
 * the two together.
 */

/** A `claude.sandbox` value as the config schema gives it. */
export type SandboxInput =
  | "strict"
  | "off"
  | (SandboxSettings & { readonly preset?: "strict"; readonly homeReadable?: readonly string[] });

/** Where the usual secrets live, as the runtime spells home (`~`: the child's HOME). */
export const SECRET_PATHS = ["~/.ssh", "~/.aws", "~/.config/gcloud"] as const;

export interface SandboxContext {
  /**
   * The server's own files a sandboxed command must neither read nor write (absolute): its
   * config file, its key files, its database and session map.
   */
  readonly serverFiles: readonly string[];
  /**
   * The repository's common git directory (absolute, real), never writable by a sandboxed
   * command under any sandbox that is on: its refs choose what the server checks out and
   * commits on (git-metadata.ts). Empty or unset: the workspace is no repository.
   */
  readonly gitMetadata?: readonly string[];
}

/** The preset over `extra` (the other keys of `{ "preset": "strict", ... }`). Pure. */
export function strictSettings(ctx: SandboxContext, extra: SandboxSettings = {}): SandboxSettings {
  const files = [...ctx.serverFiles];
  return {
    ...extra,
    ...STRICT_FIXED,
    network: {
      ...extra.network,
      allowedDomains: [...(extra.network?.allowedDomains ?? [])],
      // Refused at once instead of asking: a prompt would let the caller widen it.
      strictAllowlist: true,
    },
    filesystem: {
      ...extra.filesystem,
      denyRead: unique([...SECRET_PATHS, ...files, ...(extra.filesystem?.denyRead ?? [])]),
      denyWrite: unique([
        ...files,
        ...(ctx.gitMetadata ?? []),
        ...(extra.filesystem?.denyWrite ?? []),
      ]),
    },
  };
}

/** The SDK's `sandbox` option for a workspace's `claude.sandbox`; undefined: none. Pure. */
export function sandboxSettings(
  input: SandboxInput | undefined,
  ctx: SandboxContext,
): SandboxSettings | undefined {
  if (input === undefined || input === "off") return undefined;
  if (input === "strict") return strictSettings(ctx);
  // homeReadable is ours (the boundary's HOME list), not the runtime's.
  const { preset, homeReadable: _homeReadable, ...rest } = input;
  return preset === "strict" ? strictSettings(ctx, rest) : withGitMetadata(rest, ctx);
}

/** An operator's own sandbox, on: the repository's git metadata added to its denyWrite. Pure. */
function withGitMetadata(settings: SandboxSettings, ctx: SandboxContext): SandboxSettings {
  const git = ctx.gitMetadata ?? [];
  if (settings.enabled !== true || git.length === 0) return settings;
  const denyWrite = unique([...(settings.filesystem?.denyWrite ?? []), ...git]);
  return { ...settings, filesystem: { ...settings.filesystem, denyWrite } };
}

/** Whether `settings` sandbox commands at all. Pure. */
export const sandboxOn = (settings: SandboxSettings | undefined): boolean =>
  settings?.enabled === true;

/** The name of what `input` is, for logs and `--check`: "strict", "custom" or "off". Pure. */
export function sandboxName(input: SandboxInput | undefined): "strict" | "custom" | "off" {
  if (input === undefined || input === "off") return "off";
  if (input === "strict" || input.preset === "strict") return "strict";
  return input.enabled === true ? "custom" : "off";
}

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];
