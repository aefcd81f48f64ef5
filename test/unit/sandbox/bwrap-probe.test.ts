/**
 * The startup and `--check` sandbox probe, decided without I/O: the sandboxed command it runs is
 * bwrap with the runtime's namespaces and /proc, and a bwrap that cannot mount /proc (a
 * container's) fails the check naming the config key that fixes it.
 */
import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { StartupError } from "../../../src/common/startup-error.js";
import { resolveConfig } from "../../../src/config/load.js";
import type { Config } from "../../../src/config/schema.js";
import { bwrapProbeArgs, WEAKER_NESTED_KEY } from "../../../src/sandbox/bwrap-probe.js";
import { findMechanism, type MechanismProbe } from "../../../src/sandbox/mechanism.js";
import { requiredProblem, sandboxDetail, unrunnableProblem } from "../../../src/sandbox/policy.js";
import { sandboxSettings } from "../../../src/sandbox/preset.js";
import { openSandbox } from "../../../src/sandbox/workspace-sandbox.js";

const PROC_ERROR = "bwrap: Can't mount proc on /newroot/proc: Operation not permitted";
const ctx = { serverFiles: [] };
const strict = sandboxSettings("strict", ctx);
const weaker = sandboxSettings({ preset: "strict", enableWeakerNestedSandbox: true }, ctx);

/** A machine like a container's: bwrap and socat installed, no fresh /proc to be had. */
function containerProbe(runs: string[][]): MechanismProbe {
  return {
    platform: "linux",
    path: "/usr/bin",
    executable: (f) => Promise.resolve(f === "/usr/bin/bwrap" || f === "/usr/bin/socat"),
    tryBwrap: (_bwrap, args) => {
      runs.push([...args]);
      return Promise.resolve(args.includes("--proc") ? PROC_ERROR : undefined);
    },
  };
}

describe("bwrapProbeArgs: one command run as the runtime's sandbox runs it", () => {
  it.each<[string, SandboxSettings | undefined, string[]]>([
    ["a fresh /proc by default", strict, ["--proc", "/proc"]],
    ["the outer /proc bound with enableWeakerNestedSandbox", weaker, ["--bind", "/proc", "/proc"]],
  ])("%s", (_name, settings, proc) => {
    const args = bwrapProbeArgs(settings);
    for (const ns of ["--unshare-pid", "--unshare-user", "--unshare-net"]) {
      expect(args).toContain(ns);
    }
    const at = args.indexOf(proc[0] ?? "");
    expect(args.slice(at, at + proc.length)).toEqual(proc);
    // A shell that prints a word: the probe passes only when that word comes out.
    expect(args.slice(args.indexOf("--"))).toEqual(["--", "/bin/sh", "-c", "echo sandboxed"]);
  });
});

describe("the probe in a container that cannot mount /proc", () => {
  it('"strict" alone cannot run, and says which key to set', async () => {
    const runs: string[][] = [];
    const mechanism = await findMechanism(strict, containerProbe(runs));
    expect(runs).toHaveLength(1);
    expect(mechanism).toEqual({
      kind: "missing",
      what: `bubblewrap cannot run a sandboxed command here (${PROC_ERROR})`,
      fix: `set ${WEAKER_NESTED_KEY} to true (in a container that cannot mount /proc; docs/container.md)`,
    });
    expect(unrunnableProblem("The workspace /workspace", strict, mechanism)).toBe(
      "The workspace /workspace: its claude.sandbox is on but cannot run here: bubblewrap cannot " +
        `run a sandboxed command here (${PROC_ERROR}); set claude.sandbox.enableWeakerNestedSandbox ` +
        "to true (in a container that cannot mount /proc; docs/container.md).",
    );
    // The startup log's line says so too, not just "on".
    expect(sandboxDetail("strict", strict, mechanism)).toMatch(/^on \(strict\) but cannot run; /);
    expect(requiredProblem("The workspace /workspace", strict, mechanism)).toContain(
      "server.sandbox.required is set but its sandbox cannot run here: bubblewrap cannot run a " +
        `sandboxed command here (${PROC_ERROR}); set claude.sandbox.enableWeakerNestedSandbox to true`,
    );
  });

  it("with enableWeakerNestedSandbox the command runs and the sandbox is on", async () => {
    const mechanism = await findMechanism(weaker, containerProbe([]));
    expect(mechanism).toEqual({
      kind: "bubblewrap",
      bwrap: "/usr/bin/bwrap",
      socat: "/usr/bin/socat",
    });
    expect(unrunnableProblem("The workspace /workspace", weaker, mechanism)).toBeUndefined();
  });

  it("other failures point at user namespaces, not the key", async () => {
    const probe: MechanismProbe = {
      ...containerProbe([]),
      tryBwrap: () => Promise.resolve("bwrap: No permissions to create new namespace"),
    };
    const mechanism = await findMechanism(strict, probe);
    expect(mechanism.kind === "missing" && mechanism.fix).toMatch(
      /^allow unprivileged user namespaces/,
    );
    expect(JSON.stringify(mechanism)).not.toContain(WEAKER_NESTED_KEY);
  });

  it("a sandbox that is off is never a problem", () => {
    const missing = { kind: "missing", what: "x", fix: "y" } as const;
    expect(unrunnableProblem("The workspace /w", undefined, missing)).toBeUndefined();
  });
});

describe("startup with the probe of a container that cannot mount /proc", () => {
  const cwd = mkdtempSync(join(tmpdir(), "claude-a2a-probe-"));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  const config = (input: object): Config =>
    resolveConfig(input, { file: "t.json", startDir: cwd, overrides: { cwd } });
  const logger = (warnings: string[]) =>
    ({ warn: (m: string) => warnings.push(m), info: () => undefined }) as unknown as Logger;
  const key = "set claude.sandbox.enableWeakerNestedSandbox to true";

  it("server.sandbox.required: refuses to start, naming the key", async () => {
    const strictRequired = config({
      claude: { sandbox: "strict" },
      server: { sandbox: { required: true } },
    });
    const opening = openSandbox(strictRequired, {
      workspace: undefined,
      logger: logger([]),
      probe: containerProbe([]),
    });
    await expect(opening).rejects.toThrow(StartupError);
    await expect(opening).rejects.toThrow(key);
  });

  it("otherwise: starts, with a warning naming the key", async () => {
    const warnings: string[] = [];
    await openSandbox(config({ claude: { sandbox: "strict" } }), {
      workspace: undefined,
      logger: logger(warnings),
      probe: containerProbe([]),
    });
    expect(warnings).toEqual([expect.stringContaining(key)]);
  });

  it("with the key set: starts without a warning", async () => {
    const warnings: string[] = [];
    const sandbox = await openSandbox(
      config({ claude: { sandbox: { preset: "strict", enableWeakerNestedSandbox: true } } }),
      { workspace: undefined, logger: logger(warnings), probe: containerProbe([]) },
    );
    expect(warnings).toEqual([]);
    expect(sandbox.mechanism.kind).toBe("bubblewrap");
  });
});
