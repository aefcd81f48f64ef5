import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderConfigSchema, SCHEMA_FILE } from "../../../scripts/generate-config-schema.js";
import { configJsonSchema } from "../../../src/config/schema.js";

describe("config.schema.json", () => {
  it("is up to date with the zod schema (run: npx tsx scripts/generate-config-schema.ts)", async () => {
    const committed = await readFile(SCHEMA_FILE, "utf8");
    expect(committed).toBe(await renderConfigSchema());
  });

  it("describes the input side: no key is required, unknown keys are refused", () => {
    const schema = configJsonSchema() as {
      title?: string;
      required?: string[];
      additionalProperties?: boolean;
      properties: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
    };
    expect(schema.title).toBe("claude-a2a configuration");
    expect(schema.required ?? []).toEqual([]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual([
      "$schema",
      "server",
      "agentCard",
      "claude",
      "sessions",
      "artifacts",
      "streaming",
      "replay",
      "log",
      "store",
      "limits",
      "tracing",
      "workspaces",
      "peers",
      "fleet",
      "triggers",
    ]);
    for (const block of [
      "server",
      "agentCard",
      "claude",
      "sessions",
      "limits",
      "tracing",
      "fleet",
    ]) {
      expect(schema.properties[block]?.required ?? []).toEqual([]);
    }
    expect(schema.properties.server?.properties?.bodyLimit).toMatchObject({ default: "10mb" });
    expect(schema.properties.server?.properties?.port).toMatchObject({
      default: 3008,
      minimum: 1,
      maximum: 65535,
    });
  });
});
