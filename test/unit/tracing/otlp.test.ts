/** The production exporter, OTLP/HTTP, against a receiver on 127.0.0.1 (never another address). */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { otlpTracing } from "../../../src/tracing/otel.js";

interface Received {
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

describe("OTLP export", () => {
  it("posts the spans, with the service name, to the configured endpoint when it shuts down", async () => {
    const received: Received[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          path: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const tracing = otlpTracing({
        endpoint: `http://127.0.0.1:${port}/v1/traces`,
        serviceName: "otlp-under-test",
      });
      const span = tracing.root("a2a.task", { "a2a.task.id": "t-1" });
      span.child("claude.run", { "claude.run.id": "r-1" }).end();
      span.end();
      await tracing.shutdown();

      expect(received.map((r) => r.path)).toEqual(["/v1/traces"]);
      const body = JSON.parse(received[0]?.body ?? "{}") as {
        resourceSpans: {
          resource: { attributes: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: { spans: { name: string }[] }[];
        }[];
      };
      const [resourceSpans] = body.resourceSpans;
      const service = resourceSpans?.resource.attributes.find((a) => a.key === "service.name");
      expect(service?.value.stringValue).toBe("otlp-under-test");
      const names = resourceSpans?.scopeSpans.flatMap((s) => s.spans.map((x) => x.name)) ?? [];
      expect(names.sort()).toEqual(["a2a.task", "claude.run"]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
