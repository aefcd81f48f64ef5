import { fenceArgs, type CheckFences } from "./check-fences.js";

/**
 * How a delivery check is started: the program and arguments (under bubblewrap when the
 * workspace's sandbox is on with it), and its environment. Pure.
 */

/** The sandbox a check runs under: bubblewrap's binary, as the workspace's sandbox found it. */
export interface CheckSandbox {
  readonly bwrap: string;
  /** `claude.sandbox.enableWeakerNestedSandbox`: bind the outer `/proc` (in a container). */
  readonly weakerNested: boolean;
  /** What the workspace's boundary keeps from commands in this worktree (check-fences.ts). */
  readonly fences?: CheckFences | undefined;
}

export interface CheckCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * `/bin/sh -c <command>` in `cwd`; with a sandbox, inside bubblewrap the way Claude's sandboxed
 * Bash runs: everything read-only but the worktree and a private `/tmp`, the boundary's denied
 * paths unreadable and the conversation's `.git` read-only (its fences), its own PID, user and
 * network namespaces (no network at all), and nothing outliving the check.
 */
export function checkCommand(command: string, cwd: string, sandbox?: CheckSandbox): CheckCommand {
  const shell = ["/bin/sh", "-c", command];
  if (sandbox === undefined) return { file: shell[0] ?? "/bin/sh", args: shell.slice(1) };
  const proc = sandbox.weakerNested ? ["--bind", "/proc", "/proc"] : ["--proc", "/proc"];
  return {
    file: sandbox.bwrap,
    args: [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      ...proc,
      "--tmpfs",
      "/tmp",
      ...fenceArgs(sandbox.fences, cwd),
      "--chdir",
      cwd,
      "--unshare-pid",
      "--unshare-user",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
      "--",
      ...shell,
    ],
  };
}

/** Variables a check never gets, whatever the server's environment holds: the model's keys. */
const MODEL_CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
];

/**
 * A check's environment: what Claude's Bash gets (`childEnv`: the server's secrets are already
 * out of it), without the model's credentials, and with the sandbox on only `plain` variables
 * (the boundary's rule for sandboxed commands: `plain(name)`).
 */
export function checkEnvironment(
  childEnv: Readonly<Record<string, string | undefined>>,
  plain: ((name: string) => boolean) | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(childEnv)) {
    if (value === undefined || MODEL_CREDENTIALS.includes(name)) continue;
    if (plain !== undefined && !plain(name)) continue;
    env[name] = value;
  }
  return env;
}
