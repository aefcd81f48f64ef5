import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { intBetween, name, names } from "./schema-parts.js";

/**
 * `claude.sandbox`: the OS sandbox of Claude Code's Bash tool (the Agent SDK's `SandboxSettings`,
 * passed through), or the `"strict"` preset (`src/sandbox/preset.ts`), alone or as
 * `{ "preset": "strict", ... }` with keys that add to it (allowed domains, more denied paths).
 * The output type is checked against the SDK's own below, so the schema cannot silently drift.
 */

export const SANDBOX_PRESETS = ["strict"] as const;

/** What "strict" fixes: a key set otherwise in `{ "preset": "strict", ... }` is a config error. */
export const STRICT_FIXED = {
  enabled: true,
  failIfUnavailable: true,
  autoAllowBashIfSandboxed: true,
  allowUnsandboxedCommands: false,
} as const;

/**
 * What a `"strict"` sandbox cannot also have, one sentence, or undefined: each of these would let
 * a command write outside its tree, leave the sandbox, bypass the network allowlist or read a
 * secret again. Pure (the config schema and the per-task decision both ask it).
 */
export function strictConflict(s: SandboxSettings): string | undefined {
  for (const [key, value] of Object.entries(STRICT_FIXED)) {
    const set = (s as Record<string, unknown>)[key];
    if (set !== undefined && set !== value) return `"strict" sets ${key} to ${String(value)}`;
  }
  if (s.network?.strictAllowlist === false) return '"strict" sets network.strictAllowlist to true';
  const refused: [boolean, string][] = [
    [s.excludedCommands !== undefined, "excludedCommands (they run outside the sandbox)"],
    [s.filesystem?.allowWrite !== undefined, "filesystem.allowWrite (writes stay in the tree)"],
    [s.filesystem?.allowRead !== undefined, "filesystem.allowRead (it re-opens denied paths)"],
    [s.filesystem?.disabled === true, "filesystem.disabled"],
    [s.network?.httpProxyPort !== undefined, "network.httpProxyPort (it bypasses the allowlist)"],
    [s.network?.socksProxyPort !== undefined, "network.socksProxyPort (it bypasses the allowlist)"],
    [s.network?.allowAllUnixSockets === true, "network.allowAllUnixSockets"],
  ];
  const hit = refused.find(([bad]) => bad);
  return hit && `"strict" cannot have ${hit[1]}`;
}

const bool = () => z.boolean({ error: "expected true or false" });
const port = () => intBetween(1, 65535);

const networkSchema = z
  .strictObject({
    allowedDomains: names()
      .optional()
      .describe(
        'Hosts sandboxed commands may reach (wildcards such as "*.example.com"). Under ' +
          '"strict": the only ones. Default: none.',
      ),
    deniedDomains: names().optional().describe("Hosts always refused, even if allowed."),
    strictAllowlist: bool()
      .optional()
      .describe(
        "Refuse a host not in allowedDomains at once instead of asking (a permission prompt " +
          'for the host). "strict" sets it.',
      ),
    allowUnixSockets: names().optional().describe("macOS: Unix socket paths commands may use."),
    allowAllUnixSockets: bool().optional().describe("Allow every Unix socket (both platforms)."),
    allowLocalBinding: bool().optional().describe("macOS: commands may listen on localhost."),
    allowMachLookup: names().optional().describe("macOS: XPC/Mach services commands may look up."),
    httpProxyPort: port().optional().describe("Your own HTTP proxy's local port, used instead."),
    socksProxyPort: port().optional().describe("Your own SOCKS5 proxy's local port, used instead."),
  })
  .describe("What sandboxed commands may reach on the network.");

const filesystemSchema = z
  .strictObject({
    allowWrite: names()
      .optional()
      .describe("Paths writable besides the working directory and the runtime's temp dir."),
    denyWrite: names().optional().describe("Paths never writable."),
    denyRead: names()
      .optional()
      .describe('Paths sandboxed commands cannot read ("~" is the child\'s HOME).'),
    allowRead: names().optional().describe("Paths readable again inside a denyRead path."),
    disabled: bool()
      .optional()
      .describe('Skip filesystem isolation (network isolation stays). Not with "strict".'),
  })
  .describe("What sandboxed commands may read and write.");

/** Every key of `SandboxSettings` an operator may set (managed-only keys left out). */
export const sandboxSettingsShape = {
  enabled: bool().optional().describe("Run Bash commands in the OS sandbox."),
  failIfUnavailable: bool()
    .optional()
    .describe(
      "If the sandbox cannot start (bubblewrap missing, unsupported platform), fail instead of " +
        "running commands unsandboxed. The runtime's default with enabled: true.",
    ),
  autoAllowBashIfSandboxed: bool()
    .optional()
    .describe("Run a sandboxed Bash command without a permission prompt."),
  allowUnsandboxedCommands: bool()
    .optional()
    .describe(
      "Let Claude ask to run a command outside the sandbox (dangerouslyDisableSandbox). " +
        "The runtime's default: true.",
    ),
  network: networkSchema.optional(),
  filesystem: filesystemSchema.optional(),
  excludedCommands: names()
    .optional()
    .describe(
      'Commands that run outside the sandbox (through the permission flow). Not with "strict".',
    ),
  enableWeakerNestedSandbox: bool()
    .optional()
    .describe(
      "Linux: a weaker sandbox that works inside a container which cannot mount /proc " +
        "(docs/container.md). Weaker: the container must isolate.",
    ),
  enableWeakerNetworkIsolation: bool()
    .optional()
    .describe("macOS: let commands reach the system's TLS trust service (weaker)."),
  ignoreViolations: z
    .record(name(), names(), { error: "expected an object of command patterns to paths" })
    .optional()
    .describe("Violations not reported, by command pattern."),
  ripgrep: z
    .strictObject({ command: name(), args: names().optional() })
    .optional()
    .describe(
      "Linux: the ripgrep the runtime runs before every sandboxed command to find dangerous " +
        "files (.bashrc, .git/hooks, …) below the working directory. Default: its bundled one.",
    ),
  bwrapPath: name().optional().describe("Linux: the bubblewrap binary. Default: bwrap on PATH."),
  socatPath: name().optional().describe("Linux: the socat binary. Default: socat on PATH."),
} as const;

const settingsObject = z
  .strictObject({
    preset: z
      .enum(SANDBOX_PRESETS, { error: 'expected "strict"' })
      .optional()
      .describe('"strict": the preset, the other keys adding to it (docs/sandbox.md).'),
    homeReadable: names()
      .optional()
      .describe(
        'With "preset": "strict": paths under HOME that sandboxed commands may still read, ' +
          'besides ~/.gitconfig and ~/.config/git ("~/.npmrc", "/home/me/.cache/pip"). ' +
          "Every other path under HOME is unreadable under strict.",
      ),
    ...sandboxSettingsShape,
  })
  .superRefine((s, ctx) => {
    if (s.homeReadable !== undefined && s.preset !== "strict") {
      ctx.addIssue({
        code: "custom",
        message: 'homeReadable is a key of the "strict" preset: add "preset": "strict"',
      });
    }
    const conflict = s.preset === "strict" ? strictConflict(s) : undefined;
    if (conflict !== undefined)
      ctx.addIssue({ code: "custom", message: `${conflict}: drop the key or the preset` });
  });

export const sandboxSchema = z
  .union([z.literal("strict"), z.literal("off"), settingsObject], {
    error:
      'expected "strict", "off" or an object of sandbox settings ({ "enabled": true, ... } ' +
      'or { "preset": "strict", "network": { "allowedDomains": [...] } })',
  })
  .describe(
    'The OS sandbox of Claude Code\'s Bash tool: "strict" (docs/sandbox.md), "off", or the ' +
      'Agent SDK\'s SandboxSettings (with "preset": "strict" to add to the preset). ' +
      "Default: off.",
  );

export type SandboxSettingsConfig = z.output<typeof settingsObject>;

type Assignable<A, B> = [A] extends [B] ? true : false;
const _settingsAreSdk: Assignable<
  Omit<SandboxSettingsConfig, "preset" | "homeReadable">,
  SandboxSettings
> = true;

/** `server.sandbox`: the operator's policy over every workspace's sandbox. */
export const serverSandboxSchema = z
  .strictObject({
    required: bool()
      .default(false)
      .describe(
        "Refuse to start a workspace whose sandbox is off or cannot run here (bubblewrap or " +
          "socat missing on Linux, sandbox-exec on macOS).",
      ),
  })
  .describe("The operator's policy over the workspaces' sandboxes.");
