import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { configSchema } from "../../../src/config/schema.js";
import {
  SECRET_PATHS,
  sandboxName,
  sandboxSettings,
  strictConflict,
  type SandboxInput,
} from "../../../src/sandbox/preset.js";

const ctx = { serverFiles: ["/ws/.claude/claude-a2a.config.json", "/ws/.claude/claude-a2a.db"] };

describe("sandboxSettings: claude.sandbox as the runtime gets it", () => {
  it.each<[string, SandboxInput, readonly string[] | undefined]>([
    ["strict", "strict", [...ctx.serverFiles, "/ws/.git"]],
    [
      "the operator's own, on",
      { enabled: true, filesystem: { denyWrite: ["/x"] } },
      ["/x", "/ws/.git"],
    ],
    ["the operator's own, off", { enabled: false }, undefined],
  ])(
    "the repository's git metadata is never writable under a sandbox that is on: %s",
    (_n, input, deny) => {
      const settings = sandboxSettings(input, { ...ctx, gitMetadata: ["/ws/.git"] });
      expect(settings?.filesystem?.denyWrite).toEqual(deny);
    },
  );

  it('"strict" is exactly the preset of docs/sandbox.md', () => {
    expect(sandboxSettings("strict", ctx)).toEqual({
      enabled: true,
      failIfUnavailable: true,
      autoAllowBashIfSandboxed: true,
      allowUnsandboxedCommands: false,
      network: { allowedDomains: [], strictAllowlist: true },
      filesystem: {
        denyRead: [...SECRET_PATHS, ...ctx.serverFiles],
        denyWrite: ctx.serverFiles,
      },
    });
  });

  it("strict with allowed domains and more denied paths: added to the preset", () => {
    const input: SandboxInput = {
      preset: "strict",
      network: { allowedDomains: ["registry.npmjs.org"], deniedDomains: ["evil.example"] },
      filesystem: { denyRead: ["~/.netrc"] },
      enableWeakerNestedSandbox: true,
    };
    expect(sandboxSettings(input, ctx)).toEqual({
      enabled: true,
      failIfUnavailable: true,
      autoAllowBashIfSandboxed: true,
      allowUnsandboxedCommands: false,
      enableWeakerNestedSandbox: true,
      network: {
        allowedDomains: ["registry.npmjs.org"],
        deniedDomains: ["evil.example"],
        strictAllowlist: true,
      },
      filesystem: {
        denyRead: [...SECRET_PATHS, ...ctx.serverFiles, "~/.netrc"],
        denyWrite: ctx.serverFiles,
      },
    });
  });

  it.each<[string, SandboxInput | undefined, ReturnType<typeof sandboxSettings>]>([
    ["unset: no sandbox option", undefined, undefined],
    ['"off": no sandbox option', "off", undefined],
    [
      "an object without a preset: passed through as it is",
      { enabled: true, network: { allowedDomains: ["x.example"] } },
      { enabled: true, network: { allowedDomains: ["x.example"] } },
    ],
  ])("%s", (_name, input, expected) => {
    expect(sandboxSettings(input, ctx)).toEqual(expected);
  });

  it.each<[SandboxInput | undefined, string]>([
    [undefined, "off"],
    ["off", "off"],
    ["strict", "strict"],
    [{ preset: "strict" }, "strict"],
    [{ enabled: true }, "custom"],
    [{ enabled: false }, "off"],
  ])("sandboxName(%j) is %s", (input, name) => {
    expect(sandboxName(input)).toBe(name);
  });
});

describe("strictConflict: what strict cannot also have", () => {
  it.each<[string, Parameters<typeof strictConflict>[0], string | undefined]>([
    ["the preset's own values", { enabled: true, allowUnsandboxedCommands: false }, undefined],
    ["allowed domains and deny lists", { network: { allowedDomains: ["a"] } }, undefined],
    ["the sandbox off", { enabled: false }, '"strict" sets enabled to true'],
    [
      "unsandboxed commands",
      { allowUnsandboxedCommands: true },
      '"strict" sets allowUnsandboxedCommands to false',
    ],
    [
      "no auto-allow",
      { autoAllowBashIfSandboxed: false },
      '"strict" sets autoAllowBashIfSandboxed to true',
    ],
    [
      "a prompt for hosts",
      { network: { strictAllowlist: false } },
      '"strict" sets network.strictAllowlist to true',
    ],
    [
      "excluded commands",
      { excludedCommands: ["docker"] },
      '"strict" cannot have excludedCommands (they run outside the sandbox)',
    ],
    [
      "more writable paths",
      { filesystem: { allowWrite: ["/"] } },
      '"strict" cannot have filesystem.allowWrite (writes stay in the tree)',
    ],
    [
      "re-opened reads",
      { filesystem: { allowRead: ["~/.ssh"] } },
      '"strict" cannot have filesystem.allowRead (it re-opens denied paths)',
    ],
    [
      "no filesystem isolation",
      { filesystem: { disabled: true } },
      '"strict" cannot have filesystem.disabled',
    ],
    [
      "an own proxy",
      { network: { httpProxyPort: 8080 } },
      '"strict" cannot have network.httpProxyPort (it bypasses the allowlist)',
    ],
  ])("%s", (_name, settings, expected) => {
    expect(strictConflict(settings)).toBe(expected);
  });
});

describe("the config schema's claude.sandbox", () => {
  const parse = (sandbox: unknown) => configSchema.safeParse({ claude: { sandbox } });

  it('takes "strict", "off", SandboxSettings and strict with allowed domains', () => {
    for (const ok of [
      "strict",
      "off",
      { enabled: true, autoAllowBashIfSandboxed: true, filesystem: { denyRead: ["~/.ssh"] } },
      { preset: "strict", network: { allowedDomains: ["registry.npmjs.org"] } },
    ]) {
      expect(parse(ok).success, JSON.stringify(ok)).toBe(true);
    }
  });

  it.each([
    ["an unknown preset", "lenient", 'claude.sandbox: expected "strict", "off" or an object'],
    ["an unknown key", { enabled: true, colour: "red" }, "claude.sandbox.colour: unknown key"],
    [
      "strict with unsandboxed commands",
      { preset: "strict", allowUnsandboxedCommands: true },
      'claude.sandbox: "strict" sets allowUnsandboxedCommands to false: drop the key or the preset',
    ],
  ])("refuses %s, saying what is wrong", (_name, sandbox, message) => {
    expect(() => resolveConfig({ claude: { sandbox } }, { file: "f", startDir: "/tmp" })).toThrow(
      message,
    );
  });

  it("server.sandbox.required defaults to false", () => {
    expect(configSchema.parse({}).server.sandbox).toEqual({ required: false });
  });
});
