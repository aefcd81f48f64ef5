import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import type { Logger } from "pino";
import type { Config } from "../config/schema.js";
import { StartupError } from "../common/startup-error.js";
import {
  describeMechanism,
  findMechanism,
  mechanismAvailable,
  type Mechanism,
  type MechanismProbe,
} from "./mechanism.js";
import type { SandboxPolicy } from "./narrowing.js";
import {
  exposureWarning,
  requiredProblem,
  sandboxDetail,
  unrunnableProblem,
  workspaceLabel,
} from "./policy.js";
import { sandboxName, sandboxSettings, strictSettings } from "./preset.js";
import { serverFiles } from "./server-files.js";
import { gitMetadata } from "./git-metadata.js";
import { workspaceBoundary, type WorkspaceBoundary } from "./workspace-boundary.js";

/** One workspace's sandbox as the server runs it: what every process gets, what a task may ask. */
export interface WorkspaceSandbox {
  readonly name: "strict" | "custom" | "off";
  /** The SDK's `sandbox` option of every Claude Code process of the workspace. */
  readonly settings: SandboxSettings | undefined;
  readonly mechanism: Mechanism;
  /** What a message's `metadata.sandbox` may narrow. */
  readonly policy: SandboxPolicy;
  /** The boundary around every process (`docs/sandbox.md`, "Threat model"); none when off. */
  readonly boundary: WorkspaceBoundary | undefined;
}

/** The workspace's sandbox, found out (no process started): what `--check` and startup read. */
export async function inspectSandbox(
  config: Config,
  configFile?: string | null,
  probe?: MechanismProbe,
  /** The Claude Code child's environment (default: the server's). */
  env: Record<string, string | undefined> = process.env,
): Promise<WorkspaceSandbox> {
  const ctx = {
    serverFiles: serverFiles(config, configFile),
    gitMetadata: await gitMetadata(config.claude.cwd),
  };
  const name = sandboxName(config.claude.sandbox);
  const base = sandboxSettings(config.claude.sandbox, ctx);
  const boundary = workspaceBoundary(config, base, {
    serverFiles: ctx.serverFiles,
    gitMetadata: ctx.gitMetadata,
    env,
    strict: name === "strict",
  });
  const settings = boundary?.sandbox ?? base;
  const mechanism = await findMechanism(settings, probe);
  return {
    name,
    boundary,
    settings,
    mechanism,
    policy: {
      base: settings,
      strict: strictSettings(ctx),
      available: mechanismAvailable(mechanism),
    },
  };
}

/**
 * At a workspace's startup: `server.sandbox.required` refuses a workspace whose sandbox is off or
 * cannot run (StartupError, one sentence); one that is on and cannot run, or off on a server others
 * may call, is warned about; the sandbox is logged. "Cannot run" is the probe's sandboxed command
 * failing (bwrap-probe.ts, about 12 ms).
 */
export async function openSandbox(
  config: Config,
  o: {
    workspace: string | undefined;
    configFile?: string | null;
    logger: Logger;
    env?: Record<string, string | undefined>;
    /** The sandboxed command's runner and the machine (tests); default: this machine's. */
    probe?: MechanismProbe;
  },
): Promise<WorkspaceSandbox> {
  const sandbox = await inspectSandbox(config, o.configFile, o.probe, o.env);
  const label = workspaceLabel(o.workspace, config.claude.cwd);
  if (config.server.sandbox.required) {
    const problem = requiredProblem(label, sandbox.settings, sandbox.mechanism);
    if (problem !== undefined) throw new StartupError(problem);
  }
  // On but unable to run: every Bash command would fail; said once here rather than per command.
  const warning =
    unrunnableProblem(label, sandbox.settings, sandbox.mechanism) ??
    exposureWarning(label, config, sandbox.settings, sandbox.mechanism);
  if (warning !== undefined) o.logger.warn(warning);
  o.logger.info(
    {
      sandbox: sandbox.name,
      mechanism: describeMechanism(sandbox.mechanism),
      detail: sandboxDetail(
        sandbox.name,
        sandbox.settings,
        sandbox.mechanism,
        sandbox.boundary?.homeReadable,
      ),
    },
    "sandbox",
  );
  return sandbox;
}
