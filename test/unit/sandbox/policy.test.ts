import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import type { ConfigInput } from "../../../src/config/schema.js";
import {
  findMechanism,
  type Mechanism,
  type MechanismProbe,
} from "../../../src/sandbox/mechanism.js";
import { exposureWarning, requiredProblem, sandboxDetail } from "../../../src/sandbox/policy.js";

const found: Mechanism = { kind: "bubblewrap", bwrap: "/usr/bin/bwrap", socat: "/usr/bin/socat" };
const noBwrap: Mechanism = {
  kind: "missing",
  what: "bubblewrap is not installed (no bwrap on PATH)",
  fix: "install it: apt-get install bubblewrap socat",
};
const on = { enabled: true, network: { allowedDomains: ["registry.npmjs.org"] } };

describe("requiredProblem: what server.sandbox.required refuses", () => {
  it.each<[string, typeof on | undefined, Mechanism, string | undefined]>([
    ["on and found", on, found, undefined],
    [
      "off",
      undefined,
      found,
      'Workspace "api": server.sandbox.required is set but its claude.sandbox is off; set it to "strict" (docs/sandbox.md).',
    ],
    [
      "on, bubblewrap missing",
      on,
      noBwrap,
      'Workspace "api": server.sandbox.required is set but its sandbox cannot run here: bubblewrap is not installed (no bwrap on PATH); install it: apt-get install bubblewrap socat.',
    ],
    [
      "on, unsupported platform",
      on,
      { kind: "unsupported", platform: "win32" },
      'Workspace "api": server.sandbox.required is set but its sandbox cannot run here: no sandbox on platform win32.',
    ],
  ])("%s", (_name, settings, mechanism, expected) => {
    expect(requiredProblem('Workspace "api"', settings, mechanism)).toBe(expected);
  });
});

describe("exposureWarning: an off sandbox where others may call", () => {
  const config = (input: ConfigInput) => resolveConfig(input, { file: "f", startDir: "/tmp" });
  it.each([
    ["loopback, no callers, off", {}, undefined, false],
    [
      "a token, off",
      { server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } } },
      undefined,
      true,
    ],
    ["allowed logins, off", { server: { allowedLogins: ["a@b"] } }, undefined, true],
    [
      "on all interfaces (0.0.0.0) with a token, off",
      {
        server: {
          host: "0.0.0.0",
          auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] },
        },
      },
      undefined,
      true,
    ],
    [
      "on all interfaces (0.0.0.0) with a token, on",
      {
        server: {
          host: "0.0.0.0",
          auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] },
        },
      },
      on,
      false,
    ],

    [
      "a token, on",
      { server: { auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } } },
      on,
      false,
    ],
  ])("%s", (_name, input, settings, warns) => {
    const warning = exposureWarning("The workspace /w", config(input), settings, found);
    expect(warning !== undefined).toBe(warns);
    if (warns) expect(warning).toContain('set claude.sandbox to "strict"');
  });

  it("on all interfaces (0.0.0.0) with a token, on but bubblewrap missing: says why", () => {
    const exposed = config({
      server: { host: "0.0.0.0", auth: { tokens: [{ name: "ci", sha256: "a".repeat(64) }] } },
    });
    expect(exposureWarning("The workspace /w", exposed, on, noBwrap)).toBe(
      "The workspace /w: callers other than the local user may reach this server and its sandbox " +
        "cannot run (bubblewrap is not installed (no bwrap on PATH)): their commands run with this " +
        'user\'s rights; set claude.sandbox to "strict" (and server.sandbox.required) (docs/sandbox.md).',
    );
  });
});

describe("sandboxDetail: the --check line", () => {
  it.each([
    [
      "strict" as const,
      on,
      found,
      "on (strict); mechanism: bubblewrap /usr/bin/bwrap, socat /usr/bin/socat; allowed domains: registry.npmjs.org",
    ],
    [
      "off" as const,
      undefined,
      noBwrap,
      "off; mechanism: bubblewrap is not installed (no bwrap on PATH); allowed domains: none",
    ],
  ])("%s", (name, settings, mechanism, expected) => {
    expect(sandboxDetail(name, settings, mechanism)).toBe(expected);
  });
});

describe("findMechanism: what the runtime would use here", () => {
  const probe = (o: Partial<MechanismProbe> & { files?: string[] }): MechanismProbe => ({
    platform: "linux",
    path: "/usr/local/bin:/usr/bin",
    executable: (f) =>
      Promise.resolve((o.files ?? ["/usr/bin/bwrap", "/usr/bin/socat"]).includes(f)),
    tryBwrap: () => Promise.resolve(undefined),
    ...o,
  });
  it.each<[string, MechanismProbe, Record<string, string> | undefined, Partial<Mechanism>]>([
    ["both on PATH", probe({}), undefined, found],
    [
      "no bwrap",
      probe({ files: ["/usr/bin/socat"] }),
      undefined,
      { kind: "missing", what: "bubblewrap is not installed (no bwrap on PATH)" },
    ],
    [
      "a bwrapPath that does not exist",
      probe({}),
      { bwrapPath: "/nonexistent/bwrap" },
      { kind: "missing", what: "bubblewrap is not installed (/nonexistent/bwrap)" },
    ],
    [
      "no socat",
      probe({ files: ["/usr/bin/bwrap"] }),
      undefined,
      { kind: "missing", what: "socat is not installed (no socat on PATH)" },
    ],
    [
      "bwrap that cannot sandbox",
      probe({ tryBwrap: () => Promise.resolve("bwrap: No permissions to create new namespace") }),
      undefined,
      {
        kind: "missing",
        what: "bubblewrap cannot run a sandboxed command here (bwrap: No permissions to create new namespace)",
      },
    ],
    [
      "macOS",
      probe({ platform: "darwin", files: ["/usr/bin/sandbox-exec"] }),
      undefined,
      { kind: "seatbelt", path: "/usr/bin/sandbox-exec" },
    ],
    [
      "Windows",
      probe({ platform: "win32" }),
      undefined,
      { kind: "unsupported", platform: "win32" },
    ],
  ])("%s", async (_name, p, settings, expected) => {
    expect(await findMechanism(settings, p)).toMatchObject(expected);
  });
});
