import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const isLogLevel = (level: string): level is LogLevel =>
  (LOG_LEVELS as readonly string[]).includes(level);

/**
 * Never logged, wherever they appear in a log object: credentials and the bodies that may carry
 * them. (Request lines carry ids and timings only; this is the safety net.)
 */
export const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "headers.cookie",
  "*.headers.cookie",
  'headers["x-a2a-notification-token"]',
  '*.headers["x-a2a-notification-token"]',
  "token",
  "*.token",
  "tokens",
  "*.tokens",
  "credentials",
  "*.credentials",
  "apiKey",
  "*.apiKey",
  "password",
  "*.password",
  "ANTHROPIC_API_KEY",
  "*.ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "*.ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "*.CLAUDE_CODE_OAUTH_TOKEN",
  "env",
  "*.env",
];

/** JSON lines, unless stdout is a terminal (then pretty) or `LOG_FORMAT` says otherwise. Pure. */
export function logFormat(
  env: Record<string, string | undefined>,
  stdoutIsTTY: boolean,
): "json" | "pretty" {
  const wanted = env.LOG_FORMAT?.trim().toLowerCase();
  if (wanted === "json" || wanted === "pretty") return wanted;
  return stdoutIsTTY ? "pretty" : "json";
}

/**
 * The level to log at: `LOG_LEVEL` when set (it overrides the config file, so one run can be
 * made verbose without editing it), else the config's `log.level`. Undefined when `LOG_LEVEL` is
 * not a level. Pure.
 */
export function logLevel(
  env: Record<string, string | undefined>,
  configured: LogLevel,
): LogLevel | undefined {
  const wanted = env.LOG_LEVEL?.trim();
  if (wanted === undefined || wanted === "") return configured;
  return isLogLevel(wanted) ? wanted : undefined;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/g;
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `s` with every control character (and the Unicode line separators) escaped, so a string a
 * client chose can never end a log line and start a forged one. Pure.
 */
export function escapeControlChars(s: string): string {
  return s.replace(
    CONTROL,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const messageText = (msg: unknown): string =>
  typeof msg === "string" ? msg : msg === undefined ? "" : JSON.stringify(msg);

/** The longest a JSON line waits in the buffer before it is written (ms). */
export const LOG_FLUSH_MS = 50;
/** Buffered lines are written at once when they reach this many bytes. */
const LOG_BUFFER_BYTES = 4096;

/** A destination whose buffered lines are written synchronously, now. */
export interface BatchedDestination extends DestinationStream {
  /** Writes what is buffered (the next timer would have), then calls `done` (pino's flush). */
  flush(done?: (err?: Error) => void): void;
}

/** Every batched destination open, written out when the process exits. */
const open = new Set<{ flushSync(): void }>();
let exitHooked = false;

function flushAtExit(boom: { flushSync(): void }): void {
  open.add(boom);
  if (exitHooked) return;
  exitHooked = true;
  // `exit` runs on a normal end, on process.exit() (the shutdown guard's), and after an uncaught
  // exception or an unhandled rejection: their lines, the crash's own included, are written.
  process.on("exit", () => {
    for (const b of open) {
      try {
        b.flushSync();
      } catch {
        // Nowhere left to say it.
      }
    }
  });
}

/**
 * JSON lines to file descriptor `fd`, written in batches: one synchronous write for every line
 * of the last `flushMs` (or 4 KB), instead of one per line. Under load the request log line's
 * own write was most of its cost (a syscall per request, 8 % of a read's server CPU in the
 * store phases' profile). A line is on its way within `flushMs`; every buffered line is written
 * when the process exits (normally, by process.exit(), or after an uncaught exception). Only a
 * process killed outright (`kill -9`, the OOM killer) loses its last `flushMs` of lines.
 */
export function batchedDestination(fd: number, flushMs = LOG_FLUSH_MS): BatchedDestination {
  const boom = pino.destination({ dest: fd, sync: true, minLength: LOG_BUFFER_BYTES });
  flushAtExit(boom);
  let timer: NodeJS.Timeout | undefined;
  const flush = (done?: (err?: Error) => void) => {
    clearTimeout(timer);
    timer = undefined;
    try {
      boom.flush();
    } catch (err) {
      done?.(err as Error);
      return;
    }
    done?.();
  };
  return {
    write(line: string) {
      boom.write(line);
      // Unref'd: a line waiting must not keep a finished process alive (exit writes it).
      timer ??= setTimeout(() => flush(), flushMs).unref();
    },
    flush,
  };
}

export function createLogger(o: {
  level: LogLevel;
  format: "json" | "pretty";
  /** Where the lines go; default: standard output. */
  destination?: NodeJS.WritableStream;
}): Logger {
  const options: LoggerOptions = {
    level: o.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  };
  // JSON lines escape every control character already.
  if (o.format === "json") return pino(options, o.destination ?? batchedDestination(1));
  return pino(
    options,
    pretty({
      colorize: true,
      sync: true,
      translateTime: "SYS:HH:MM:ss.l",
      // One line per record: the fields on the message's line, the message escaped. Only a
      // server fault's stack (`err`) spans lines, indented under its record.
      singleLine: true,
      errorLikeObjectKeys: ["err"],
      messageFormat: (log, messageKey) => escapeControlChars(messageText(log[messageKey])),
      ...(o.destination && { destination: o.destination }),
    }),
  );
}
