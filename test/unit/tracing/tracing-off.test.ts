/** Tracing off (the default) costs nothing: the OpenTelemetry code is never loaded. */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../../src/config/load.js";
import {
  loadTracing,
  NO_TRACING,
  NOOP_SPAN,
  type TracingModule,
} from "../../../src/tracing/tracing.js";
import { scriptedAgent } from "../a2a/support/agent.js";

const SRC = fileURLToPath(new URL("../../../src", import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

describe("tracing off", () => {
  it("loadTracing does not load the implementation unless enabled", async () => {
    const otlpTracing = vi.fn(() => NO_TRACING);
    const module: TracingModule = { otlpTracing };
    const load = vi.fn(() => Promise.resolve(module));
    const off = resolveConfig({}, { file: "t.json", startDir: "/tmp" }).tracing;
    expect(await loadTracing(off, load)).toBe(NO_TRACING);
    expect(load).not.toHaveBeenCalled();

    const on = resolveConfig(
      { tracing: { enabled: true, otlpEndpoint: "http://127.0.0.1:4318/v1/traces" } },
      { file: "t.json", startDir: "/tmp" },
    ).tracing;
    await loadTracing(on, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(otlpTracing).toHaveBeenCalledWith({
      endpoint: "http://127.0.0.1:4318/v1/traces",
      serviceName: "claude-a2a",
    });
  });

  it("no module but the implementation imports OpenTelemetry, and the implementation only dynamically", async () => {
    const offenders: string[] = [];
    for (const file of await sources(SRC)) {
      const text = await readFile(file, "utf8");
      const name = relative(SRC, file);
      const staticImports = [...text.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map(
        (m) => m[1] ?? "",
      );
      if (
        name !== join("tracing", "otel.ts") &&
        staticImports.some((s) => s.startsWith("@opentelemetry/"))
      ) {
        offenders.push(`${name} imports OpenTelemetry`);
      }
      if (staticImports.some((s) => /(^|\/)otel\.js$/.test(s)))
        offenders.push(`${name} imports otel.js`);
    }
    expect(offenders).toEqual([]);
  });

  it("the default server's tracing is the no-op: its spans do nothing and name no trace", async () => {
    const h = await scriptedAgent();
    try {
      expect(h.agent.tracing).toBe(NO_TRACING);
      const span = h.agent.tracing.request("A2A SendMessage", { traceparent: "00-x-y-01" });
      expect(span).toBe(NOOP_SPAN);
      expect(span.child("a2a.task").headers()).toEqual({});
    } finally {
      await h.close();
    }
  });
});
