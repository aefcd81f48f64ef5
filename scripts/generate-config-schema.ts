/**
 * Writes config.schema.json, the JSON Schema of .claude/claude-a2a.config.json, from the zod
 * schema in src/config/schema.ts. Run after changing that schema:
 *   npx tsx scripts/generate-config-schema.ts
 * A unit test fails while the committed file is out of date.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { configJsonSchema } from "../src/config/schema.js";

export const SCHEMA_FILE = fileURLToPath(new URL("../config.schema.json", import.meta.url));

/** The file's expected content, formatted as `prettier --check` wants it. */
export async function renderConfigSchema(): Promise<string> {
  const options = (await resolveConfig(SCHEMA_FILE)) ?? {};
  return format(JSON.stringify(configJsonSchema(), null, 2), { ...options, filepath: SCHEMA_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(SCHEMA_FILE, await renderConfigSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
