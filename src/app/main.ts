import { parseArgs } from "node:util";
import type { Logger } from "pino";
import { ConfigError, loadConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { checkCredentials, formatReport, runChecks } from "../doctor/checks.js";
import { configChange, describeChange, recordConfig } from "../config/config-seen.js";
import { configFix } from "../doctor/config-fix.js";
import { createLogger, LOG_LEVELS, logFormat, logLevel } from "../common/logging.js";
import { StartupError, startServer, type RunningServer } from "./server.js";
import { currentInvocation, type Invocation } from "../common/invocation.js";
import { packageVersion } from "../common/version.js";
import { OFFLINE_HINT } from "../doctor/offline-hint.js";
import type { ScriptedRuntime, StartScripted } from "./scripted-config.js";
import { openScripted } from "./scripted-start.js";
import { USAGE } from "./usage.js";

export { USAGE };

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Standard error is a terminal: then the one human line about what is served goes there. */
  readonly errIsTTY?: boolean;
}

/**
 * The one human line printed at startup (beside the JSON log) so nobody serves the wrong tree:
 * what to type to talk to it from here (`claude-a2a` after a global install, `npx claude-a2a`
 * inside the clone, else `node <path>/dist/cli.js`: `common/invocation.ts`) and where its
 * console is. `url` ends without a slash, a
 * workspace's with one. Pure.
 */
export const servingLine = (url: string, cwd: string, bin: Invocation): string => {
  const base = url.replace(/\/+$/, "");
  return `claude-a2a: serving ${cwd} at ${url} (Ctrl-C stops; talk to it with: ${bin} chat --url ${url}; console: ${base}/console/)\n`;
};

export interface MainDeps {
  /** Where the server was started; default process.cwd(). */
  readonly cwd?: string;
  readonly logger?: Logger;
  /** How the user runs the bin, for the startup line (default: from `process.argv[1]`). */
  readonly invocation?: Invocation;
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: (server: RunningServer) => Promise<void>;
  /** `--scripted`: starts the scripted model (src/demo/, above this layer: the cli gives it). */
  readonly scripted?: StartScripted;
}

interface Flags {
  help?: boolean;
  version?: boolean;
  port?: string;
  host?: string;
  config?: string;
  cwd?: string;
  workspace?: string[];
  check?: boolean;
  scripted?: string;
}

export function parseFlags(argv: readonly string[]): Flags {
  return parseArgs({
    args: [...argv],
    options: {
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
      port: { type: "string", short: "p" },
      host: { type: "string" },
      config: { type: "string", short: "c" },
      cwd: { type: "string" },
      workspace: { type: "string", multiple: true },
      check: { type: "boolean" },
      scripted: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}

const overridesOf = (flags: Flags) => ({
  port: flags.port,
  host: flags.host,
  cwd: flags.cwd,
  workspaces: flags.workspace,
});

const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

/** Longest a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 15_000;

function guardShutdown(logger: Logger): { dispose(): void } {
  const now = (signal: NodeJS.Signals) => {
    logger.warn({ signal }, "second signal: exiting now");
    process.exit(130);
  };
  process.once("SIGINT", now);
  process.once("SIGTERM", now);
  const timer = setTimeout(() => {
    logger.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, "shutdown took too long: exiting now");
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  return {
    dispose: () => {
      clearTimeout(timer);
      process.off("SIGINT", now);
      process.off("SIGTERM", now);
    },
  };
}

/**
 * Without credentials every task fails, but the server starts anyway: a login made on this
 * machine meanwhile needs no restart. The Claude Code children inherit this environment.
 */
async function warnIfNoCredentials(logger: Logger): Promise<void> {
  const check = await checkCredentials(process.env);
  if (check.ok) return;
  logger.warn(
    { check: check.name, detail: check.detail, fix: check.fix },
    `Claude Code is not logged in on this machine: every task will fail until it is (run \`claude\` once and log in, or set ANTHROPIC_API_KEY; \`claude-a2a --check\` tells what is missing; ${OFFLINE_HINT})`,
  );
}

/** The startup's warning when the config file changed since the last start; records this one. */
async function warnIfConfigChanged(
  file: string | null | undefined,
  cwd: string,
  logger: Logger,
): Promise<void> {
  if (!file) return;
  try {
    const change = await recordConfig(file, cwd);
    if (change.kind === "changed") logger.warn(describeChange(change));
  } catch (err) {
    logger.warn({ err }, "could not record the config file's digest");
  }
}

/** `--check`: validates the config and the environment; exit code 1 if anything is wrong. */
async function doctor(flags: Flags, io: Io, deps: MainDeps): Promise<number> {
  let config: Config;
  let file: string | null | undefined;
  try {
    ({ config, file } = await loadConfig({
      cwd: deps.cwd ?? process.cwd(),
      configPath: flags.config,
      overrides: overridesOf(flags),
    }));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const report = formatReport([
      { name: "config", ok: false, detail: err.message, fix: configFix(err.message) },
    ]);
    io.out(report.text);
    return report.code;
  }
  const change = file
    ? await configChange(file, config.claude.cwd).catch(() => undefined)
    : undefined;
  const report = formatReport([
    {
      name: "config",
      ok: true,
      detail: file ?? "no config file (defaults)",
      ...(change?.kind === "changed" && { warning: describeChange(change) }),
    },
    ...(await runChecks(config, file)),
  ]);
  io.out(report.text);
  return report.code;
}

/** Runs the command line; resolves with the process exit code once the server has stopped. */
export async function main(argv: readonly string[], io: Io, deps: MainDeps = {}): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (err) {
    io.err(`claude-a2a: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (flags.version) {
    io.out(`${packageVersion()}\n`);
    return 0;
  }
  if (flags.help) {
    io.out(USAGE);
    return 0;
  }

  if (flags.check) return doctor(flags, io, deps);

  if (deps.logger === undefined && logLevel(process.env, "info") === undefined) {
    const level = process.env.LOG_LEVEL ?? "";
    io.err(`claude-a2a: LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; got "${level}".\n`);
    return 2;
  }
  let logger: Logger;
  let server: RunningServer;
  let scripted: ScriptedRuntime | undefined;
  try {
    const loaded = await loadConfig({
      cwd: deps.cwd ?? process.cwd(),
      configPath: flags.config,
      overrides: overridesOf(flags),
    });
    const { file } = loaded;
    let { config } = loaded;
    if (flags.scripted !== undefined) {
      ({ config, scripted } = await openScripted(flags.scripted, config, deps.scripted));
    }
    // The config file's log.level, unless LOG_LEVEL (checked above) says otherwise.
    logger =
      deps.logger ??
      createLogger({
        level: logLevel(process.env, config.log.level) ?? config.log.level,
        format: logFormat(process.env, process.stdout.isTTY === true),
      });
    logger.info({ configFile: file ?? "(none: defaults)" }, "configuration loaded");
    if (scripted) {
      // Neither the real login nor the config's digest: nothing of the real server's is touched.
      logger.info(
        { rules: flags.scripted, model: scripted.modelUrl },
        "serving on a scripted model: no login, no network",
      );
    } else {
      await warnIfConfigChanged(file, config.claude.cwd, logger);
      await warnIfNoCredentials(logger);
    }
    server = await startServer({
      config,
      logger,
      configFile: file,
      ...(scripted && { claudeEnv: scripted.env, stateDir: scripted.stateDir }),
    });
    if (io.errIsTTY) {
      const bin = deps.invocation ?? currentInvocation();
      if (server.workspaces.length === 0) io.err(servingLine(server.url, config.claude.cwd, bin));
      for (const w of server.workspaces) io.err(servingLine(w.url, w.cwd, bin));
    }
  } catch (err) {
    await scripted?.close();
    if (err instanceof ConfigError || err instanceof StartupError) {
      io.err(`claude-a2a: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  await (deps.stopSignal ?? untilSignal)(server);
  logger.info("stopping");
  // Real signals only: a second one, or a shutdown that hangs, ends the process at once.
  const guard = deps.stopSignal === undefined ? guardShutdown(logger) : undefined;
  await server.close();
  await scripted?.close();
  guard?.dispose();
  return 0;
}
