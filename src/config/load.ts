import { constants } from "node:fs";
import { access, readFile, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError, describeIssues, describeValue, expectation } from "./errors.js";
import { CONFIG_FILE, configSchema, type Config } from "./schema.js";
import { withTriggerLimits } from "./triggers-schema.js";
import { resolveWorkspaces, workspacesProblem, type WorkspaceSpec } from "./workspaces.js";

export { ConfigError } from "./errors.js";

/** Command-line flags that win over the config file. */
export interface ConfigOverrides {
  /** `--port`: a number, or the flag's raw string. */
  port?: number | string | undefined;
  /** `--host` */
  host?: string | undefined;
  /** `--cwd`: resolved against the start directory. */
  cwd?: string | undefined;
  /** `--workspace name=dir`, each time it is given: resolved against the start directory. */
  workspaces?: readonly string[] | undefined;
}

export interface LoadConfigOptions {
  /** The directory the server was started in. */
  cwd: string;
  /** `--config`: resolved against `cwd`; must exist when given. */
  configPath?: string | undefined;
  overrides?: ConfigOverrides;
}

export interface LoadedConfig {
  config: Config;
  /** The file read, or null when none exists and the defaults apply. */
  file: string | null;
}

/**
 * Reads and validates the config. `--cwd X` behaves like `cd X`: the default config file is looked
 * up in X. Throws a ConfigError whose message is ready to print.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const startDir = resolve(options.cwd);
  const overrides = options.overrides ?? {};
  const explicit = options.configPath !== undefined;
  const file = explicit
    ? resolve(startDir, options.configPath ?? "")
    : resolve(startDir, overrides.cwd ?? ".", CONFIG_FILE);

  let text: string | null;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !explicit) text = null;
    else if (code === "ENOENT") throw new ConfigError(`Config file not found: ${file}`, file);
    else throw new ConfigError(`Cannot read config file ${file}: ${(err as Error).message}`, file);
  }

  const raw = text === null ? {} : parseConfigText(text, file);
  const config = resolveConfig(raw, { file, startDir, overrides });
  await assertDirectory(config.claude.cwd, overrides.cwd !== undefined ? "--cwd" : file);
  await checkWorkspaceDirectories(config);
  return { config, file: text === null ? null : file };
}

/** JSON.parse with an error that names the file and, when known, the line and column. */
export function parseConfigText(text: string, file: string): unknown {
  // Some Windows editors write a BOM, which JSON.parse rejects.
  const json = text.replace(/^\uFEFF/, "");
  try {
    return JSON.parse(json) as unknown;
  } catch (err) {
    const message = (err as Error).message;
    const at = /at position (\d+)/.exec(message);
    const position = at ? Number(at[1]) : /end of JSON input/.test(message) ? json.length : null;
    const reason = message
      .replace(/\s*in JSON at position \d+.*$/s, "")
      .replace(/ of JSON input$/, " of input");
    const where = position === null ? "" : ` at ${lineColumn(json, position)}`;
    throw new ConfigError(`Invalid JSON in ${file}${where}: ${reason}`, file, { cause: err });
  }
}

export interface ResolveOptions {
  /** Named in error messages. */
  file: string;
  /** Relative paths resolve against it. */
  startDir: string;
  overrides?: ConfigOverrides;
}

/** Validates parsed file contents, applies the overrides and fills computed defaults. */
export function resolveConfig(raw: unknown, options: ResolveOptions): Config {
  const overrides = checkOverrides(options.overrides ?? {});
  const parsed = configSchema.safeParse(raw, { reportInput: true, error: expectation });
  if (!parsed.success) {
    const lines = describeIssues(parsed.error.issues, configSchema);
    throw new ConfigError(
      `Invalid config file ${options.file}:\n${lines.map((l) => `  - ${l}`).join("\n")}`,
      options.file,
    );
  }
  const { $schema: _editorHint, server, claude, workspaces, ...rest } = parsed.data;
  const port = overrides.port ?? server.port;
  const cwd = overrides.cwd ?? claude.cwd ?? ".";
  const specs = resolveWorkspaces(
    workspaces,
    (raw as { workspaces?: unknown } | null)?.workspaces,
    overrides.workspaces ?? [],
    options.startDir,
  );
  if (specs.length > 0 && Object.keys(rest.triggers).length > 0) {
    throw new ConfigError(
      `Invalid config file ${options.file}:\n  - triggers: with workspaces, each trigger goes ` +
        "under its workspace (workspaces.<name>.triggers)",
      options.file,
    );
  }
  return {
    ...rest,
    limits: withTriggerLimits(rest.limits, rest.triggers),
    server: {
      ...server,
      host: overrides.host ?? server.host,
      port,
      // Without the trailing slash, `${publicUrl}/a2a/jsonrpc` never doubles it.
      publicUrl: (server.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    },
    claude: { ...claude, cwd: resolve(options.startDir, cwd) },
    workspaces: specs,
  };
}

interface CheckedOverrides {
  port?: number;
  host?: string;
  cwd?: string;
  workspaces?: readonly string[];
}

function checkOverrides(overrides: ConfigOverrides): CheckedOverrides {
  const out: CheckedOverrides = {};
  const { port, host, cwd } = overrides;
  if (port !== undefined) {
    const n = typeof port === "number" ? port : /^\s*\d+\s*$/.test(port) ? Number(port) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      throw optionError("--port", "expected an integer between 1 and 65535", port);
    }
    out.port = n;
  }
  if (host !== undefined) {
    if (host.trim() === "") throw optionError("--host", "expected a non-empty string", host);
    out.host = host.trim();
  }
  if (cwd !== undefined) {
    if (cwd.trim() === "") throw optionError("--cwd", "expected a directory", cwd);
    out.cwd = cwd;
  }
  if (overrides.workspaces !== undefined) out.workspaces = overrides.workspaces;
  return out;
}

function optionError(flag: string, expected: string, got: unknown): ConfigError {
  return new ConfigError(`Invalid option ${flag}: ${expected}, got ${describeValue(got)}`);
}

async function assertDirectory(dir: string, source: string): Promise<void> {
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (isDir) return;
  if (source === "--cwd") throw new ConfigError(`Invalid option --cwd: no such directory: ${dir}`);
  throw new ConfigError(
    `Invalid config file ${source}:\n  - claude.cwd: expected an existing directory, got ${dir}`,
    source,
  );
}

/**
 * Each workspace's directory exists and can be listed and entered, and no two names share one
 * (symlinks followed); the first problem stops startup, naming the workspace.
 */
async function checkWorkspaceDirectories(config: Config): Promise<void> {
  const real: string[] = [];
  for (const spec of config.workspaces) real.push(await readableDirectory(spec));
  const problem = workspacesProblem(config.workspaces, config, real);
  if (problem !== undefined) throw new ConfigError(problem);
}

async function readableDirectory(spec: WorkspaceSpec): Promise<string> {
  const isDir = await stat(spec.cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new ConfigError(`Workspace "${spec.name}": no such directory: ${spec.cwd}`);
  try {
    await access(spec.cwd, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    throw new ConfigError(
      `Workspace "${spec.name}": cannot read and write the directory ${spec.cwd}: ${(err as Error).message}`,
    );
  }
  return realpath(spec.cwd);
}

function lineColumn(text: string, position: number): string {
  const lines = text.slice(0, position).split("\n");
  return `line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
}
