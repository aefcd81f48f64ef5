import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { bwrapProbeArgs, bwrapProblem, runBwrap } from "./bwrap-probe.js";

/**
 * Which OS mechanism the runtime's sandbox would use here, found the way the runtime looks
 * (`bwrapPath`/`socatPath`, else PATH) and, for bubblewrap, one sandboxed command run as the
 * runtime would run it (bwrap-probe.ts): a container without user namespaces, or one that cannot
 * mount a fresh /proc, has the binary and still cannot sandbox. Asked at startup and by `--check`.
 */
export type Mechanism =
  | { readonly kind: "bubblewrap"; readonly bwrap: string; readonly socat: string }
  | { readonly kind: "seatbelt"; readonly path: string }
  | { readonly kind: "missing"; readonly what: string; readonly fix: string }
  | { readonly kind: "unsupported"; readonly platform: string };

export const SEATBELT = "/usr/bin/sandbox-exec";
const INSTALL =
  "install it: apt-get install bubblewrap socat (Debian, Ubuntu), dnf install bubblewrap socat " +
  "(Fedora), or set claude.sandbox.bwrapPath / socatPath";

export interface MechanismProbe {
  readonly platform: NodeJS.Platform;
  readonly path: string | undefined;
  /** Whether `file` exists and may be executed. */
  executable(file: string): Promise<boolean>;
  /** Runs bwrap with `args` (bwrap-probe.ts); resolves with its error, undefined when it worked. */
  tryBwrap(bwrap: string, args: readonly string[]): Promise<string | undefined>;
}

export const realProbe: MechanismProbe = {
  platform: process.platform,
  path: process.env.PATH,
  executable: (file) =>
    access(file, constants.X_OK).then(
      () => true,
      () => false,
    ),
  tryBwrap: runBwrap,
};

/** The mechanism `settings` would run with on this machine. */
export async function findMechanism(
  settings: SandboxSettings | undefined,
  probe: MechanismProbe = realProbe,
): Promise<Mechanism> {
  switch (probe.platform) {
    case "darwin":
      return (await probe.executable(SEATBELT))
        ? { kind: "seatbelt", path: SEATBELT }
        : { kind: "missing", what: `${SEATBELT} not found`, fix: "macOS ships it; check the OS" };
    case "linux": {
      const bwrap = await locate(settings?.bwrapPath, "bwrap", probe);
      if (bwrap === undefined) {
        const where = settings?.bwrapPath ?? "no bwrap on PATH";
        return { kind: "missing", what: `bubblewrap is not installed (${where})`, fix: INSTALL };
      }
      const socat = await locate(settings?.socatPath, "socat", probe);
      if (socat === undefined) {
        const where = settings?.socatPath ?? "no socat on PATH";
        return { kind: "missing", what: `socat is not installed (${where})`, fix: INSTALL };
      }
      const failed = await probe.tryBwrap(bwrap, bwrapProbeArgs(settings));
      if (failed !== undefined) return { kind: "missing", ...bwrapProblem(failed, settings) };
      return { kind: "bubblewrap", bwrap, socat };
    }
    default:
      return { kind: "unsupported", platform: probe.platform };
  }
}

/** A configured absolute path, else the first executable `name` on PATH. */
async function locate(
  configured: string | undefined,
  name: string,
  probe: MechanismProbe,
): Promise<string | undefined> {
  if (configured !== undefined) {
    return isAbsolute(configured) && (await probe.executable(configured)) ? configured : undefined;
  }
  for (const dir of (probe.path ?? "").split(delimiter).filter((d) => d !== "")) {
    const file = join(dir, name);
    if (await probe.executable(file)) return file;
  }
  return undefined;
}

/** One phrase naming the mechanism, for `--check` and the startup log. Pure. */
export function describeMechanism(m: Mechanism): string {
  switch (m.kind) {
    case "bubblewrap":
      return `bubblewrap ${m.bwrap}, socat ${m.socat}`;
    case "seatbelt":
      return `Seatbelt ${m.path}`;
    case "missing":
      return m.what;
    case "unsupported":
      return `no sandbox on platform ${m.platform}`;
  }
}

export const mechanismAvailable = (m: Mechanism): boolean =>
  m.kind === "bubblewrap" || m.kind === "seatbelt";
