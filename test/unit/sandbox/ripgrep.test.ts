import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import { sandboxSettings } from "../../../src/sandbox/preset.js";

/**
 * `claude.sandbox.ripgrep`: the ripgrep the runtime runs before every sandboxed command on Linux
 * (docs/BENCHMARKS.md, "Sandbox", for what it costs), passed through to the SDK as it is.
 */
const resolve = (sandbox: unknown) =>
  resolveConfig({ claude: { sandbox } }, { file: "f", startDir: "/tmp" });

describe("claude.sandbox.ripgrep", () => {
  it('is passed to the runtime as it is, with "strict" too', () => {
    const ripgrep = { command: "/usr/bin/rg", args: ["--no-config"] };
    const config = resolve({ preset: "strict", ripgrep });
    expect(config.claude.sandbox).toMatchObject({ ripgrep });
    const settings = sandboxSettings(config.claude.sandbox, { serverFiles: [] });
    expect(settings?.ripgrep).toEqual(ripgrep);
    expect(settings?.enabled).toBe(true);
  });

  it.each([
    // A value of the wrong type makes the whole object no sandbox setting (the union's message).
    ["a bare string", "rg", 'claude.sandbox: expected "strict", "off" or an object'],
    ["no command", { args: ["-u"] }, 'claude.sandbox: expected "strict", "off" or an object'],
    ["an empty command", { command: "" }, "claude.sandbox.ripgrep.command: expected a non-empty"],
    ["an unknown key", { command: "rg", path: "/x" }, "claude.sandbox.ripgrep.path: unknown key"],
  ])("refuses %s, saying what is wrong", (_name, ripgrep, message) => {
    expect(() => resolve({ enabled: true, ripgrep })).toThrow(message);
  });
});
