import type { IncomingHttpHeaders } from "node:http";
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type TracerConfig,
} from "@opentelemetry/sdk-trace-base";
import type { SpanAttributes, TraceSpan, Tracing } from "./span.js";

/**
 * The OpenTelemetry side of the tracing seam. Loaded only when tracing is on (`loadTracing`
 * imports this module dynamically): nothing here runs, or is even read, otherwise. Parents are
 * passed explicitly (a request's span to its task's, a task's to its runs'), not through a global
 * context manager: the SDK's event bus and queues would lose an implicit one.
 */

type Resource = NonNullable<TracerConfig["resource"]>;

/**
 * A resource of fixed attributes (`service.name`). Built here because the function that makes
 * one lives in `@opentelemetry/resources`, which this package does not list as a dependency.
 */
function fixedResource(attributes: Attributes): Resource {
  const resource: Resource = {
    attributes,
    getRawAttributes: () => Object.entries(attributes),
    merge: (other) =>
      other === null ? resource : fixedResource({ ...attributes, ...other.attributes }),
  };
  return resource;
}

const clean = (attributes: SpanAttributes | undefined): Attributes => {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value !== undefined) out[key] = value;
  }
  return out;
};

const propagator = new W3CTraceContextPropagator();

class OtelSpan implements TraceSpan {
  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
  ) {}

  set(attributes: SpanAttributes): void {
    this.span.setAttributes(clean(attributes));
  }

  fail(message: string): void {
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  rename(name: string): void {
    this.span.updateName(name);
  }

  end(): void {
    this.span.end();
  }

  child(name: string, attributes?: SpanAttributes): TraceSpan {
    const parent = trace.setSpan(ROOT_CONTEXT, this.span);
    const span = this.tracer.startSpan(name, { attributes: clean(attributes) }, parent);
    return new OtelSpan(this.tracer, span);
  }

  headers(): Record<string, string> {
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, this.span), carrier, defaultTextMapSetter);
    return carrier;
  }
}

export interface TracingOptions {
  readonly serviceName: string;
  readonly exporter: SpanExporter;
  /** Export each span as it ends (tests) instead of in batches. */
  readonly immediate?: boolean;
}

/** Tracing that exports to `exporter` (an in-memory one in tests, OTLP in production). */
export function createTracing(o: TracingOptions): Tracing {
  const provider = new BasicTracerProvider({
    resource: fixedResource({ "service.name": o.serviceName }),
    spanProcessors: [
      o.immediate ? new SimpleSpanProcessor(o.exporter) : new BatchSpanProcessor(o.exporter),
    ],
  });
  const tracer = provider.getTracer("claude-a2a");
  const start = (
    name: string,
    kind: SpanKind,
    attributes: SpanAttributes | undefined,
    parent = ROOT_CONTEXT,
  ) =>
    new OtelSpan(tracer, tracer.startSpan(name, { kind, attributes: clean(attributes) }, parent));
  return {
    enabled: true,
    request: (name, headers: IncomingHttpHeaders, attributes) => {
      // No valid `traceparent`: the root context, so the request starts a trace of its own.
      const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
      return start(name, SpanKind.SERVER, attributes, parent);
    },
    root: (name, attributes) => start(name, SpanKind.INTERNAL, attributes),
    shutdown: () => provider.shutdown(),
  };
}

/** The production tracing: OTLP over HTTP (JSON) to `endpoint`, batched. */
export function otlpTracing(config: {
  readonly endpoint: string;
  readonly serviceName: string;
}): Tracing {
  return createTracing({
    serviceName: config.serviceName,
    exporter: new OTLPTraceExporter({ url: config.endpoint }),
  });
}
