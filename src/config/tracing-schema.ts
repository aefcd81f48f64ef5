import { z } from "zod";

export const DEFAULT_SERVICE_NAME = "claude-a2a";

const ENDPOINT_ERROR =
  'expected the absolute http:// or https:// URL of an OTLP/HTTP traces receiver, such as "http://127.0.0.1:4318/v1/traces"';

/**
 * `tracing`: OpenTelemetry spans exported over OTLP/HTTP. Off by default; on, it needs an
 * endpoint named explicitly, so spans never leave for an address nobody chose.
 */
export const tracingSchema = z
  .strictObject({
    enabled: z
      .boolean({ error: "expected true or false" })
      .default(false)
      .describe("Export OpenTelemetry spans (requests, tasks, runs, tool calls)."),
    otlpEndpoint: z
      .url({ protocol: /^https?$/, error: ENDPOINT_ERROR })
      .optional()
      .describe(
        "OTLP/HTTP traces URL, e.g. http://127.0.0.1:4318/v1/traces. Required when enabled.",
      ),
    serviceName: z
      .string({ error: "expected a non-empty string" })
      .trim()
      .min(1, { error: "expected a non-empty string" })
      .default(DEFAULT_SERVICE_NAME)
      .describe("The `service.name` of the exported spans."),
  })
  .superRefine((t, ctx) => {
    if (t.enabled && t.otlpEndpoint === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["otlpEndpoint"],
        input: undefined,
        message: "where the spans are sent: required when tracing.enabled is true",
      });
    }
  })
  .prefault({})
  .describe("OpenTelemetry tracing, exported over OTLP/HTTP. Off by default.");

export type TracingConfig = z.output<typeof tracingSchema>;
