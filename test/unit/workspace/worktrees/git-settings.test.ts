/**
 * The configuration of the server's git (src/workspace/worktrees/git-settings.ts), pure: which
 * settings every command gets, and which a repository's configured drivers add.
 */
import { describe, expect, it } from "vitest";
import {
  driverSettings,
  FIXED_SETTINGS,
  gitSettings,
  includedFiles,
  settingsEnv,
} from "../../../../src/workspace/worktrees/git-settings.js";

describe("the server's git settings", () => {
  it("give each key that would run a program a value that runs none", () => {
    const fixed = new Map(FIXED_SETTINGS.map(([k, v]) => [k.toLowerCase(), v]));
    const table: [key: string, value: string][] = [
      ["core.hookspath", "/dev/null"],
      ["core.fsmonitor", "false"],
      ["core.pager", "cat"],
      ["core.editor", ":"],
      ["sequence.editor", ":"],
      ["core.askpass", ""],
      ["credential.helper", ""],
      ["core.sshcommand", ""],
      ["gpg.program", ""],
      ["gpg.openpgp.program", ""],
      ["gpg.x509.program", ""],
      ["gpg.ssh.program", ""],
      ["gpg.ssh.defaultkeycommand", ""],
      ["commit.gpgsign", "false"],
      ["tag.gpgsign", "false"],
      ["log.showsignature", "false"],
      ["diff.external", ""],
      ["protocol.allow", "never"],
      ["submodule.recurse", "false"],
      ["user.name", "claude-a2a"],
      ["user.email", "claude-a2a@localhost"],
    ];
    for (const [key, value] of table) expect(fixed.get(key), key).toBe(value);
    // Each key once: a later duplicate would silently win.
    expect(fixed.size).toBe(FIXED_SETTINGS.length);
  });

  it.each([
    ["nothing configured", "", []],
    [
      "a filter: every command of it emptied, and not required",
      "filter.lfs.clean\ngit-lfs clean -- %f\0filter.lfs.required\ntrue\0",
      [
        ["filter.lfs.clean", ""],
        ["filter.lfs.smudge", ""],
        ["filter.lfs.process", ""],
        ["filter.lfs.required", "false"],
      ],
    ],
    [
      "a diff driver's command and textconv, a merge driver",
      "diff.pdf.textconv\npdftotext\0merge.ours.driver\ntrue\0",
      [
        ["diff.pdf.command", ""],
        ["diff.pdf.textconv", ""],
        ["merge.ours.driver", ""],
      ],
    ],
    [
      "a driver named with dots, `=` and capitals, said exactly",
      "filter.A=b.c.smudge\nx\0",
      [
        ["filter.A=b.c.clean", ""],
        ["filter.A=b.c.smudge", ""],
        ["filter.A=b.c.process", ""],
        ["filter.A=b.c.required", "false"],
      ],
    ],
    ["a key with no value (a boolean)", "merge.m.driver\0", [["merge.m.driver", ""]]],
    ["another section, or no driver name: ignored", "core.fsmonitor\nx\0diff.textconv\nx\0", []],
  ])("neutralize every driver named: %s", (_what, listing, expected) => {
    expect(driverSettings(listing)).toEqual(expected);
  });

  it("are the fixed settings, then the drivers'", () => {
    const listing = "diff.d.command\nx\0";
    expect(gitSettings(listing)).toEqual([...FIXED_SETTINGS, ...driverSettings(listing)]);
  });

  it("go to git as GIT_CONFIG_COUNT and its numbered keys and values", () => {
    expect(
      settingsEnv([
        ["a.b", "1"],
        ["filter.x=y.clean", ""],
      ]),
    ).toEqual({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "a.b",
      GIT_CONFIG_VALUE_0: "1",
      GIT_CONFIG_KEY_1: "filter.x=y.clean",
      GIT_CONFIG_VALUE_1: "",
    });
  });

  it("name the files a repository's config includes", () => {
    expect(
      includedFiles("include.path\n../shared.gitconfig\0includeif.gitdir:/w/.path\n/etc/x\0"),
    ).toEqual(["../shared.gitconfig", "/etc/x"]);
    expect(includedFiles("")).toEqual([]);
  });
});
