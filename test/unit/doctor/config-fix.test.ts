import { describe, expect, it } from "vitest";
import { configFix } from "../../../src/doctor/config-fix.js";

describe("configFix: the --check fix line names what is wrong", () => {
  it.each([
    [
      "Invalid config file /w/.claude/claude-a2a.config.json:\n  - server.prot: unknown key",
      "correct the keys listed above in /w/.claude/claude-a2a.config.json",
    ],
    [
      "Invalid option --cwd: no such directory: /nope",
      "give --cwd an existing directory (/nope does not exist)",
    ],
    [
      'Invalid option --port: expected an integer between 1 and 65535, got "x"',
      "correct the --port option on the command line (see claude-a2a --help)",
    ],
    [
      "Config file not found: /w/other.json",
      "give --config an existing file (/w/other.json does not exist), or leave --config out",
    ],
    ["Cannot read config file /w/c.json: EACCES", "make the config file readable by this user"],
    [
      "Invalid JSON in /w/c.json at line 3, column 5: Unexpected token",
      "fix the JSON syntax at the line and column named above",
    ],
    [
      'Workspace "api": no such directory: /srv/api',
      "create the directory, or point workspaces.api.cwd (or --workspace api=…) at an existing one",
    ],
    [
      'Workspace "api": cannot read and write the directory /srv/api: EACCES',
      "make the workspace api's directory readable and writable by this user",
    ],
    ["Something new", "correct the setting the line above names"],
  ])("%s", (message, fix) => {
    expect(configFix(message)).toBe(fix);
  });

  it("never says 'the keys listed above' when no key is listed", () => {
    expect(configFix("Invalid config file /w/c.json:")).not.toContain("keys listed above");
  });
});
