/**
 * The configuration every git command of the server runs with, decided here and pure (a table
 * test holds it): git must never run anything a repository supplies. A conversation can reach
 * a repository's config (an included file it can write, a worktree's `config.worktree`), and
 * git runs commands from config keys: hooks, the fsmonitor, filters, diff and merge drivers,
 * pagers, editors, credential helpers, signing programs, transports. Each such key gets a value
 * that runs nothing, given as command-line config, which beats every config file; the system
 * and global files are not read at all (git.ts's environment).
 */

/** One `key=value` of command-line config. */
export type ConfigPair = readonly [key: string, value: string];

/**
 * Settings of every command: the identity of the server's commits, its output formats, and a
 * value that runs nothing for each key that would run a command.
 */
export const FIXED_SETTINGS: readonly ConfigPair[] = [
  // The server's commits: its own identity, unsigned.
  ["user.name", "claude-a2a"],
  ["user.email", "claude-a2a@localhost"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["log.showSignature", "false"],
  // Output the parsers expect.
  ["core.quotePath", "false"],
  ["diff.noprefix", "false"],
  ["color.ui", "false"],
  // Programs a config file could name: none runs. (An empty program is never started; git
  // skips the editor `:` and the pager `cat`.)
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", ":"],
  ["sequence.editor", ":"],
  ["core.askPass", ""],
  // Empty resets the list of helpers.
  ["credential.helper", ""],
  ["core.sshCommand", ""],
  ["gpg.program", ""],
  ["gpg.openpgp.program", ""],
  ["gpg.x509.program", ""],
  ["gpg.ssh.program", ""],
  ["gpg.ssh.defaultKeyCommand", ""],
  // Diff commands pass --no-ext-diff too; this covers one that would not.
  ["diff.external", ""],
  // No transport at all (a partial clone's lazy fetch would run `remote.*.uploadpack`, ssh...).
  ["protocol.allow", "never"],
  // A submodule's git would read the submodule's own config, with drivers not listed here.
  ["submodule.recurse", "false"],
  // The operator named this repository: served even when another user owns it (a container's
  // mounted workspace), where the global config that used to say so is no longer read. Only
  // command-line config may set it; nothing the repository configures runs either way.
  ["safe.directory", "*"],
];

/**
 * The keys of config that name a driver's command: `git config --null --get-regexp` with this
 * lists the drivers to neutralize (reading config runs nothing).
 */
export const DRIVER_KEYS =
  "^(filter|diff|merge)\\..+\\.(clean|smudge|process|command|textconv|driver|required)$";

/** For each kind of driver: the keys that run a command, and the value that runs none. */
const DRIVER_NEUTRAL: Readonly<Record<string, readonly ConfigPair[]>> = {
  filter: [
    ["clean", ""],
    ["smudge", ""],
    ["process", ""],
    // A required filter with no command would fail the server's `git add`.
    ["required", "false"],
  ],
  diff: [
    ["command", ""],
    ["textconv", ""],
  ],
  merge: [["driver", ""]],
};

/**
 * The settings that neutralize every driver named in `listing` (the `--null` output of
 * `git config --get-regexp DRIVER_KEYS`: `key\nvalue\0` each), every command key of each, once.
 * A driver's name may hold dots or `=`: it is what lies between the section and the last dot.
 * Pure.
 */
export function driverSettings(listing: string): ConfigPair[] {
  const drivers = new Map<string, string>();
  for (const entry of listing.split("\0")) {
    const key = entry.split("\n", 1)[0] ?? "";
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    if (first < 0 || last <= first) continue;
    const section = key.slice(0, first).toLowerCase();
    if (!(section in DRIVER_NEUTRAL)) continue;
    const name = key.slice(first + 1, last);
    drivers.set(`${section}.${name}`, section);
  }
  return [...drivers].flatMap(([driver, section]) =>
    (DRIVER_NEUTRAL[section] ?? []).map(([key, value]): ConfigPair => [`${driver}.${key}`, value]),
  );
}

/** Everything a command runs with: the fixed settings, then the drivers' of `listing`. Pure. */
export function gitSettings(listing: string): ConfigPair[] {
  return [...FIXED_SETTINGS, ...driverSettings(listing)];
}

/**
 * The settings as command-line config in the environment (`GIT_CONFIG_COUNT`, `_KEY_n`,
 * `_VALUE_n`: git's `-c`, with the key and value apart, so a driver name holding `=` is said
 * exactly; git passes them on to the git processes it starts). Pure.
 */
export function settingsEnv(settings: readonly ConfigPair[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** The keys of config that include another file (`include.path`, `includeIf.<cond>.path`). */
export const INCLUDE_KEYS = "^include(if\\..+)?\\.path$";

/** The files a `--null` listing of `INCLUDE_KEYS` includes. Pure. */
export function includedFiles(listing: string): string[] {
  return listing
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => entry.slice(entry.indexOf("\n") + 1));
}
