import { format } from "node:util";
import type { Logger } from "pino";

/**
 * @a2a-js/sdk (1.3) reports through `console.*`: its handlers print the stack trace of ordinary
 * client errors to stderr (an unsupported version, a pre-stream TaskNotFound…), which breaks the
 * JSON-line logs, and a client-controlled string can start a new line there. Calls made by the
 * SDK are routed to our logger instead; everybody else's console output is left alone.
 */

/** A2A errors the client caused: a bad request, never a fault of the server. */
const CLIENT_ERRORS = new Set([
  "TaskNotFoundError",
  "TaskNotCancelableError",
  "PushNotificationNotSupportedError",
  "UnsupportedOperationError",
  "ContentTypeNotSupportedError",
  "ExtendedAgentCardNotConfiguredError",
  "ExtensionSupportRequiredError",
  "VersionNotSupportedError",
  "RequestMalformedError",
]);

const METHODS = ["error", "warn", "info", "log", "debug"] as const;
type ConsoleMethod = (typeof METHODS)[number];

export interface LogLine {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly msg: string;
  readonly fields: Record<string, unknown>;
}

const isError = (x: unknown): x is Error => x instanceof Error;

export const isClientError = (x: unknown): x is Error => isError(x) && CLIENT_ERRORS.has(x.name);

/** Warnings the SDK prints about what a client sent (a reference to a task that does not exist). */
const CLIENT_CAUSED = [/^Reference task .* not found\.$/s];

/**
 * `text` with the credentials a URL may carry (`user:password@`, a query string such as
 * `?token=…`) replaced: the SDK names webhook URLs in its messages. Pure.
 */
export function redactUrls(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, "$1[redacted]@")
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)\?[^\s#]*/gi, "$1?[redacted]");
}

/**
 * What one console call of the SDK becomes. A client error is worth no more than a debug line
 * with its name and message (the request's own log line already says what was answered); other
 * errors keep their stack, inside the JSON line.
 */
export function sdkLogLine(method: ConsoleMethod, args: readonly unknown[]): LogLine {
  const errors = args.filter(isError);
  const msg = redactUrls(format(...args.filter((a) => !isError(a))).replace(/:\s*$/, ""));
  const fields = { source: "@a2a-js/sdk" };
  if (errors.length === 0 && CLIENT_CAUSED.some((re) => re.test(msg))) {
    return { level: "debug", msg, fields };
  }
  const clientError = errors.find(isClientError);
  if (clientError !== undefined && errors.every(isClientError)) {
    return {
      level: "debug",
      msg,
      fields: { ...fields, error: { name: clientError.name, message: clientError.message } },
    };
  }
  const level =
    method === "error"
      ? "error"
      : method === "warn"
        ? "warn"
        : method === "debug"
          ? "debug"
          : "info";
  return { level, msg, fields: errors[0] ? { ...fields, err: errors[0] } : fields };
}

const SDK_FRAME = /[\\/]@a2a-js[\\/]sdk[\\/]/;

/** Whether the console method was called by SDK code (frames: Error, this, the wrapper, caller). */
function calledFromSdk(): boolean {
  const frames = new Error().stack?.split("\n").slice(3, 5) ?? [];
  return frames.some((frame) => SDK_FRAME.test(frame));
}

let target: Logger | undefined;

/**
 * Node prints process warnings (a deprecation in a dependency, too many listeners, the Agent
 * SDK's warnings about a tool's schema) to stderr by itself, outside the JSON lines: its own
 * listener is replaced by one that logs them.
 */
function routeProcessWarnings(): void {
  for (const listener of process.listeners("warning")) {
    if (listener.name === "onWarning") process.off("warning", listener);
  }
  process.on("warning", (warning) => {
    target?.warn(
      { warning: { name: warning.name, message: warning.message, code: codeOf(warning) } },
      "process warning",
    );
  });
}

const codeOf = (warning: Error): unknown => (warning as { code?: unknown }).code;

/**
 * Routes the SDK's console output, and the process's warnings, to `logger` (the latest one
 * given: one server per process in production). Idempotent; the wrappers are installed once.
 */
export function routeSdkConsole(logger: Logger): void {
  const first = target === undefined;
  target = logger;
  if (!first) return;
  routeProcessWarnings();
  for (const method of METHODS) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      if (target === undefined || !calledFromSdk()) return original(...args);
      const line = sdkLogLine(method, args);
      target[line.level](line.fields, line.msg);
    };
  }
}
