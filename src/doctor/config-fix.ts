/**
 * The `fix:` line of `--check` when the config cannot be loaded: what the error names, not a
 * generic "correct the keys" (which lists no key when the problem is a flag or a directory).
 * Keyed on the ConfigError sentences of src/config/ (load.ts, workspaces.ts). Pure.
 */
export function configFix(message: string): string {
  const [first = ""] = message.split("\n");
  let m: RegExpExecArray | null;
  if ((m = /^Invalid config file (.+):$/.exec(first)) && message.includes("\n  - ")) {
    return `correct the keys listed above in ${m[1]}`;
  }
  if ((m = /^Invalid option --cwd: no such directory: (.+)$/.exec(first))) {
    return `give --cwd an existing directory (${m[1]} does not exist)`;
  }
  if ((m = /^Invalid option (--[a-z-]+)/.exec(first))) {
    return `correct the ${m[1]} option on the command line (see claude-a2a --help)`;
  }
  if ((m = /^Config file not found: (.+)$/.exec(first))) {
    return `give --config an existing file (${m[1]} does not exist), or leave --config out`;
  }
  if (/^Cannot read config file /.test(first)) {
    return "make the config file readable by this user";
  }
  if (/^Invalid JSON in /.test(first)) {
    return "fix the JSON syntax at the line and column named above";
  }
  if ((m = /^Workspace "([^"]+)": no such directory/.exec(first))) {
    return `create the directory, or point workspaces.${m[1]}.cwd (or --workspace ${m[1]}=…) at an existing one`;
  }
  if ((m = /^Workspace "([^"]+)": cannot read and write/.exec(first))) {
    return `make the workspace ${m[1]}'s directory readable and writable by this user`;
  }
  return "correct the setting the line above names";
}
