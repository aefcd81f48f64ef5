import type { TracingConfig } from "../config/tracing-schema.js";
import type { TraceSpan, Tracing } from "./span.js";

/**
 * The tracing seam: what the server records of a request, a task, a run and a tool call. Off (the
 * default) it is `NO_TRACING`, whose spans do nothing, and no OpenTelemetry code is loaded at
 * all: `loadTracing` imports the implementation (`otel.ts`) only when `tracing.enabled` is true.
 */

export type { SpanAttributes, TraceSpan, Tracing } from "./span.js";

export const NOOP_SPAN: TraceSpan = {
  set: () => undefined,
  fail: () => undefined,
  rename: () => undefined,
  end: () => undefined,
  child: () => NOOP_SPAN,
  headers: () => ({}),
};

export const NO_TRACING: Tracing = {
  enabled: false,
  request: () => NOOP_SPAN,
  root: () => NOOP_SPAN,
  shutdown: () => Promise.resolve(),
};

/** What `otel.ts` exports: the real implementation, behind a dynamic import. */
export interface TracingModule {
  otlpTracing(config: { readonly endpoint: string; readonly serviceName: string }): Tracing;
}

/** How `otel.ts` is loaded (a seam: a test sees whether it is). */
export type TracingLoader = () => Promise<TracingModule>;

const loadOtel: TracingLoader = () => import("./otel.js");

/** The configured tracing: `NO_TRACING` unless enabled, without loading any exporter code. */
export async function loadTracing(
  config: TracingConfig,
  load: TracingLoader = loadOtel,
): Promise<Tracing> {
  if (!config.enabled || config.otlpEndpoint === undefined) return NO_TRACING;
  const module = await load();
  return module.otlpTracing({ endpoint: config.otlpEndpoint, serviceName: config.serviceName });
}

/** Key of the request's span in `ServerCallContext.state` (the HTTP app puts it there). */
export const SPAN_STATE_KEY = "traceSpan";

/** The span of the request a call context belongs to, if it was traced. */
export function requestSpanOf(
  state: ReadonlyMap<string, unknown> | undefined,
): TraceSpan | undefined {
  const span = state?.get(SPAN_STATE_KEY);
  return isSpan(span) ? span : undefined;
}

function isSpan(value: unknown): value is TraceSpan {
  return (
    typeof value === "object" && value !== null && typeof (value as TraceSpan).child === "function"
  );
}
