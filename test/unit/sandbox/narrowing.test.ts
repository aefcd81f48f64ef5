import type { SandboxSettings } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { requestedSandbox, type SandboxPolicy } from "../../../src/sandbox/narrowing.js";
import { sandboxSettings, strictSettings } from "../../../src/sandbox/preset.js";

const ctx = { serverFiles: ["/ws/.claude/claude-a2a.db"] };
const strict = strictSettings(ctx);
const policyOf = (base: SandboxSettings | undefined, available = true): SandboxPolicy => ({
  base,
  strict,
  available,
});
const off = policyOf(undefined);
const strictWs = policyOf(
  sandboxSettings({ preset: "strict", network: { allowedDomains: ["a.example"] } }, ctx),
);
const custom = policyOf({ enabled: true, network: { allowedDomains: ["a.example"] } });
const loose = policyOf({ enabled: true, excludedCommands: ["docker"] });

const strictOverlay = {
  enabled: true,
  failIfUnavailable: true,
  allowUnsandboxedCommands: false,
  network: { strictAllowlist: true },
  filesystem: { denyRead: strict.filesystem?.denyRead, denyWrite: strict.filesystem?.denyWrite },
};

describe("requestedSandbox: a task narrows its workspace's sandbox, never widens it", () => {
  it.each<[string, unknown, SandboxPolicy, SandboxSettings | undefined]>([
    ["nothing asked: no overlay", undefined, off, undefined],
    [
      '"strict" on an off workspace: the preset, its Bash still asking',
      "strict",
      off,
      strictOverlay,
    ],
    [
      '"strict" on a strict workspace: auto-allow kept',
      "strict",
      strictWs,
      { ...strictOverlay, autoAllowBashIfSandboxed: true },
    ],
    [
      "a denied domain on a custom workspace",
      { network: { deniedDomains: ["a.example"] } },
      custom,
      { network: { deniedDomains: ["a.example"] } },
    ],
    [
      "denied paths",
      { filesystem: { denyRead: ["/data"], denyWrite: ["/ws/src"] } },
      custom,
      { filesystem: { denyRead: ["/data"], denyWrite: ["/ws/src"] } },
    ],
    [
      "strict plus a denied domain",
      { preset: "strict", network: { deniedDomains: ["b.example"] } },
      off,
      { ...strictOverlay, network: { strictAllowlist: true, deniedDomains: ["b.example"] } },
    ],
  ])("%s", (_name, requested, policy, overlay) => {
    expect(requestedSandbox(requested, policy)).toEqual({ ok: true, overlay });
  });

  it.each<[string, unknown, SandboxPolicy, string]>([
    ["the sandbox off", { enabled: false }, strictWs, "enabled would widen the sandbox"],
    ['"off"', "off", strictWs, '"off" is not a narrowing'],
    [
      "unsandboxed commands",
      { allowUnsandboxedCommands: true },
      strictWs,
      "allowUnsandboxedCommands would widen",
    ],
    [
      "another allowed domain",
      { network: { allowedDomains: ["evil.example"] } },
      strictWs,
      "network.allowedDomains would widen",
    ],
    [
      "more writable paths",
      { filesystem: { allowWrite: ["/"] } },
      strictWs,
      "filesystem.allowWrite would widen",
    ],
    ["excluded commands", { excludedCommands: ["sh"] }, custom, "excludedCommands would widen"],
    [
      "a host prompt",
      { network: { strictAllowlist: false } },
      strictWs,
      "network.strictAllowlist would widen",
    ],
    ["another preset", { preset: "lenient" }, off, 'preset "lenient" is not a preset'],
    [
      "a non-list",
      { network: { deniedDomains: "a.example" } },
      custom,
      "expected an array of strings",
    ],
    [
      "a deny list on an off workspace",
      { network: { deniedDomains: ["a"] } },
      off,
      "the workspace's sandbox is off",
    ],
    [
      "strict where it cannot run",
      "strict",
      policyOf(undefined, false),
      "cannot run on this server",
    ],
    [
      "strict over excluded commands",
      "strict",
      loose,
      'cannot be made strict per task ("strict" cannot have excludedCommands',
    ],
    ["a number", 3, off, "3 is not a narrowing"],
    // As parsed from the caller's JSON: own keys named like Object.prototype's members.
    ["a __proto__ key", JSON.parse('{"__proto__": {"x": ["a"]}}'), custom, "__proto__ would widen"],
    [
      "a constructor key",
      JSON.parse('{"constructor": {"x": ["a"]}}'),
      custom,
      "constructor would widen",
    ],
    ["a toString key", JSON.parse('{"toString": {"x": ["a"]}}'), custom, "toString would widen"],
    [
      "a __proto__ key inside a section",
      JSON.parse('{"network": {"__proto__": ["a.example"]}}'),
      custom,
      "network.__proto__ would widen",
    ],
    [
      "a __proto__ preset beside a section",
      JSON.parse('{"__proto__": {"preset": "strict"}, "network": {"deniedDomains": ["a"]}}'),
      custom,
      "__proto__ would widen",
    ],
  ])("refuses %s", (_name, requested, policy, reason) => {
    const result = requestedSandbox(requested, policy);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.reason).toContain(reason);
    expect(result.ok ? "" : result.reason).toContain('a task may ask for "strict"');
  });
});
