import { execFile } from "node:child_process";
import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";

/**
 * The one sandboxed command startup and `--check` run before calling the sandbox on: bubblewrap
 * with the namespaces and the `/proc` the runtime's Linux sandbox asks for, around a shell that
 * prints a word. Found or not, a bwrap that cannot mount a fresh `/proc` (a container's masked
 * `/proc`) fails every Bash command the same way, so only a run like the runtime's tells.
 */

/** What the probe's command prints when it ran inside the sandbox. */
export const PROBE_OUTPUT = "sandboxed";

/** The config key that binds the container's `/proc` instead of mounting a fresh one. */
export const WEAKER_NESTED_KEY = "claude.sandbox.enableWeakerNestedSandbox";

/**
 * bwrap's arguments, as the runtime builds them for a command (its own namespaces: pid, user,
 * net; a fresh `/proc` unless `enableWeakerNestedSandbox`, which binds the outer one). Pure.
 */
export function bwrapProbeArgs(settings: SandboxSettings | undefined): string[] {
  const proc =
    settings?.enableWeakerNestedSandbox === true
      ? ["--bind", "/proc", "/proc"]
      : ["--proc", "/proc"];
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--unshare-pid",
    "--unshare-user",
    "--unshare-net",
    ...proc,
    "--",
    "/bin/sh",
    "-c",
    `echo ${PROBE_OUTPUT}`,
  ];
}

/** What a failed probe means, and what to do about it. Pure. */
export function bwrapProblem(
  error: string,
  settings: SandboxSettings | undefined,
): { what: string; fix: string } {
  const what = `bubblewrap cannot run a sandboxed command here (${error})`;
  if (/can't mount proc/i.test(error) && settings?.enableWeakerNestedSandbox !== true) {
    return {
      what,
      fix:
        `set ${WEAKER_NESTED_KEY} to true (in a container that cannot mount /proc; ` +
        `docs/container.md)`,
    };
  }
  return {
    what,
    fix:
      "allow unprivileged user namespaces (kernel.unprivileged_userns_clone, " +
      "kernel.apparmor_restrict_unprivileged_userns), or in a container see docs/container.md",
  };
}

/**
 * Runs bwrap with `args`; resolves with its first line of error, or undefined when the command
 * ran and printed PROBE_OUTPUT. Bounded: a bwrap that hangs counts as failed after 10 s.
 */
export const runBwrap = (bwrap: string, args: readonly string[]): Promise<string | undefined> =>
  new Promise((done) => {
    execFile(bwrap, args, { timeout: 10_000 }, (err, stdout, stderr) => {
      if (err !== null) {
        done(stderr.trim().split("\n")[0] || err.message);
      } else if (stdout.trim() !== PROBE_OUTPUT) {
        done(
          `the sandboxed command printed ${JSON.stringify(stdout.trim())}, not "${PROBE_OUTPUT}"`,
        );
      } else {
        done(undefined);
      }
    });
  });
