/**
 * docs/configuration.md's reference is generated from the config schema: it must be what the
 * generator writes now, and the generator's pure parts do what the page relies on.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  CONFIG_DOC,
  END_MARKER,
  BEGIN_MARKER,
  renderConfigDoc,
} from "../../../scripts/generate-config-schema.js";
import {
  configReference,
  humanMs,
  markdownText,
  splitDefault,
  type SchemaNode,
} from "../../../scripts/config-reference.js";
import { configJsonSchema } from "../../../src/config/schema.js";

/** Every dotted key path of the JSON Schema down to `depth`, as the reference spells it. */
function keyPaths(node: SchemaNode, prefix: string, depth: number): string[] {
  if (depth === 0) return [];
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => {
    const key = prefix === "" ? name : `${prefix}.${name}`;
    return [key, ...keyPaths(child, key, depth - 1)];
  });
}

describe("docs/configuration.md", () => {
  it("holds the reference the schema generates (run: npm run gen:config-schema)", async () => {
    const committed = await readFile(CONFIG_DOC, "utf8");
    expect(committed).toBe(await renderConfigDoc(committed));
  });

  it("has a row for every leaf key of the schema's sections", async () => {
    const committed = await readFile(CONFIG_DOC, "utf8");
    const schema = configJsonSchema() as SchemaNode;
    const leaves = keyPaths(schema, "", 3).filter((key) => {
      const node = key.split(".").reduce<SchemaNode | undefined>((n, k) => n?.properties?.[k], {
        properties: schema.properties,
      });
      return key !== "$schema" && node?.properties === undefined && key !== "store";
    });
    expect(leaves.length).toBeGreaterThan(50);
    for (const key of leaves) expect(committed, key).toContain(`| \`${key}\``);
  });

  it("refuses a page without its markers, naming them", async () => {
    await expect(renderConfigDoc("# Configuration\n")).rejects.toThrow(BEGIN_MARKER);
    await expect(renderConfigDoc(`${END_MARKER}\n${BEGIN_MARKER}\n`)).rejects.toThrow(END_MARKER);
  });
});

describe("the reference's pieces", () => {
  it.each([
    [1_800_000, "30 min"],
    [14_400_000, "4 h"],
    [1_000, "1 s"],
    [30_000, "30 s"],
    [1_500, undefined],
    [50, undefined],
  ] as const)("humanMs(%d) is %s", (ms, text) => {
    expect(humanMs(ms)).toBe(text);
  });

  it.each([
    ["Model id. Default: the SDK's default.", ["Model id.", "the SDK's default"]],
    ["Signing key. Unset: unsigned.", ["Signing key.", "unset (unsigned)"]],
    ["TCP port to listen on.", ["TCP port to listen on.", undefined]],
    [
      "Off: v1.0 only; such requests get -32009.",
      ["Off: v1.0 only; such requests get -32009.", undefined],
    ],
  ])("splitDefault(%j)", (text, parts) => {
    expect(splitDefault(text)).toEqual(parts);
  });

  it("escapes Markdown outside code spans only", () => {
    expect(markdownText("under /agents/<name>/, a|b, `a|<b>` and *")).toBe(
      "under /agents/&lt;name&gt;/, a\\|b, `a\\|<b>` and \\*",
    );
  });

  it("gives each section a table, defaults from the schema or the text, and required keys", () => {
    const schema: SchemaNode = {
      properties: {
        demo: {
          type: "object",
          default: {},
          properties: {
            port: { type: "integer", default: 8, description: "Port." },
            waitMs: { type: "integer", default: 60_000, description: "Wait (ms)." },
            name: { type: "string", description: "Name. Default: the host's." },
            tls: {
              type: "object",
              required: ["keyFile"],
              description: "TLS. Unset: plaintext.",
              properties: { keyFile: { type: "string", description: "Key | file." } },
            },
          },
        },
      },
    };
    expect(configReference(schema).split("\n")).toEqual([
      "### `demo`",
      "",
      "| Key | Default | Notes |",
      "| --- | --- | --- |",
      "| `demo.port` | `8` | Port. |",
      "| `demo.waitMs` | `60000` (1 min) | Wait (ms). |",
      "| `demo.name` | the host's | Name. |",
      "| `demo.tls` | unset (plaintext) | TLS. |",
      "| `demo.tls.keyFile` | required | Key \\| file. |",
      "",
    ]);
  });

  it("lists a tagged union's keys with the types they apply to", () => {
    const schema: SchemaNode = {
      properties: {
        store: {
          default: { type: "sqlite" },
          description: "Where tasks go.",
          oneOf: [
            {
              type: "object",
              properties: {
                type: { const: "sqlite" },
                path: { default: "a.db", description: "File." },
              },
            },
            {
              type: "object",
              required: ["url"],
              properties: { type: { const: "postgres" }, url: { description: "URL." } },
            },
          ],
        },
      },
    };
    const rows = configReference(schema)
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    expect(rows).toEqual([
      '| `store.type` | `"sqlite"` | "sqlite", "postgres". Where tasks go. See [Storage](storage.md#storage). |',
      '| `store.path` | `"a.db"` | With `"sqlite"`: File. |',
      '| `store.url` | required with `"postgres"` | With `"postgres"`: URL. |',
    ]);
  });
});
