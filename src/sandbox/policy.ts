import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import type { Config } from "../config/schema.js";
import { describeMechanism, mechanismAvailable, type Mechanism } from "./mechanism.js";
import { sandboxOn } from "./preset.js";

/**
 * The operator's sandbox policy, pure: what `server.sandbox.required` refuses, when an off
 * sandbox deserves a warning, and the `--check` line of a workspace.
 */

/** How a workspace is named in a sentence: its name, or the one directory at the root. */
export const workspaceLabel = (workspace: string | undefined, cwd: string): string =>
  workspace === undefined ? `The workspace ${cwd}` : `Workspace "${workspace}"`;

/**
 * Why `server.sandbox.required` refuses to start this workspace, one sentence naming it and what
 * is missing, or undefined: its sandbox is on and the mechanism is here. Pure.
 */
export function requiredProblem(
  label: string,
  settings: SandboxSettings | undefined,
  mechanism: Mechanism,
): string | undefined {
  if (!sandboxOn(settings)) {
    return (
      `${label}: server.sandbox.required is set but its claude.sandbox is off; set it to ` +
      `"strict" (docs/sandbox.md).`
    );
  }
  const cannot = cannotRun(mechanism);
  return cannot && `${label}: server.sandbox.required is set but its sandbox ${cannot}`;
}

/**
 * Why a workspace whose sandbox is on cannot run it (every sandboxed command would fail), one
 * sentence naming the workspace and the fix, or undefined: off, or the mechanism is here. Pure:
 * `--check` fails on it and startup warns (refuses with server.sandbox.required).
 */
export function unrunnableProblem(
  label: string,
  settings: SandboxSettings | undefined,
  mechanism: Mechanism,
): string | undefined {
  const cannot = sandboxOn(settings) ? cannotRun(mechanism) : undefined;
  return cannot && `${label}: its claude.sandbox is on but ${cannot}`;
}

/** "cannot run here: <what>; <fix>." or undefined when the mechanism is here. Pure. */
function cannotRun(mechanism: Mechanism): string | undefined {
  if (mechanismAvailable(mechanism)) return undefined;
  const fix = mechanism.kind === "missing" ? `; ${mechanism.fix}` : "";
  return `cannot run here: ${describeMechanism(mechanism)}${fix}.`;
}

/** Whether others than the local user can reach the server: a non-loopback bind, or callers. */
export function exposed(config: Pick<Config, "server">): boolean {
  const s = config.server;
  const loopback = s.host === "localhost" || s.host === "::1" || s.host.startsWith("127.");
  return (
    !loopback ||
    s.auth.tokens.length > 0 ||
    s.auth.oidc !== undefined ||
    (s.allowedLogins?.length ?? 0) > 0 ||
    s.operators.length > 0
  );
}

/**
 * The warning of a workspace whose sandbox is off (or cannot run) while others may call the
 * server, or undefined. Pure: the startup log and `--check` both print it.
 */
export function exposureWarning(
  label: string,
  config: Pick<Config, "server">,
  settings: SandboxSettings | undefined,
  mechanism: Mechanism,
): string | undefined {
  if (!exposed(config)) return undefined;
  if (sandboxOn(settings) && mechanismAvailable(mechanism)) return undefined;
  const why = sandboxOn(settings)
    ? `its sandbox cannot run (${describeMechanism(mechanism)})`
    : "its sandbox is off";
  return (
    `${label}: callers other than the local user may reach this server and ${why}: ` +
    `their commands run with this user's rights; set claude.sandbox to "strict" ` +
    `(and server.sandbox.required) (docs/sandbox.md).`
  );
}

/**
 * The `--check` detail of a workspace's sandbox: on or off, the mechanism, the allowed domains,
 * and under `"strict"` what commands may still read in HOME.
 */
export function sandboxDetail(
  name: "strict" | "custom" | "off",
  settings: SandboxSettings | undefined,
  mechanism: Mechanism,
  homeReadable: readonly string[] = [],
): string {
  const domains = settings?.network?.allowedDomains ?? [];
  // "On" alone would read as working (the startup log said so while every command failed).
  const runs = mechanismAvailable(mechanism) ? "" : " but cannot run";
  const on = sandboxOn(settings) ? `on (${name})${runs}` : "off";
  const home = homeReadable.length === 0 ? "" : `; readable in HOME: ${homeReadable.join(", ")}`;
  return (
    `${on}; mechanism: ${describeMechanism(mechanism)}; allowed domains: ` +
    `${domains.length === 0 ? "none" : domains.join(", ")}${home}`
  );
}
