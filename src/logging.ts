import { pino, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  "token",
  "*.token",
  "apiKey",
  "*.apiKey",
  "password",
  "*.password",
  "ANTHROPIC_API_KEY",
  "*.ANTHROPIC_API_KEY",
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

export function createLogger(o: { level: LogLevel; format: "json" | "pretty" }): Logger {
  const options: LoggerOptions = {
    level: o.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  };
  if (o.format === "json") return pino(options);
  return pino(options, pretty({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l" }));
}
