import type { IncomingHttpHeaders } from "node:http";

/** What the server traces, whatever implements it (OpenTelemetry in otel.ts, or nothing). */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

export interface TraceSpan {
  /** Adds attributes; undefined values are skipped. */
  set(attributes: SpanAttributes): void;
  /** Marks the span as failed, saying why. */
  fail(message: string): void;
  /** A better name, once known (a request's A2A method, read from its body). */
  rename(name: string): void;
  end(): void;
  child(name: string, attributes?: SpanAttributes): TraceSpan;
  /** The W3C trace-context headers (`traceparent`, `tracestate`) naming this span; {} when off. */
  headers(): Record<string, string>;
}

export interface Tracing {
  readonly enabled: boolean;
  /** The span of an incoming request: a child of its W3C `traceparent`, when it carries one. */
  request(name: string, headers: IncomingHttpHeaders, attributes?: SpanAttributes): TraceSpan;
  /** A span with no parent (work no traced request caused). */
  root(name: string, attributes?: SpanAttributes): TraceSpan;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}
