/**
 * An earlier build refuses a config with a key it does not know (its schema is strict), so the
 * compare scenario hands each build only the keys its own `config.schema.json` names. Pure.
 */

interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `config` with every key `schema` does not name removed (at any depth where the schema lists
 * its properties and allows no others), and the dotted paths of what was removed.
 */
export function knownKeysOnly(
  config: Record<string, unknown>,
  schema: unknown,
): { config: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  const walk = (value: Record<string, unknown>, node: SchemaNode, path: string) => {
    const props = node.properties;
    // A node that lists no properties, or allows others: whatever the build reads there is its own.
    if (props === undefined || node.additionalProperties !== false) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const child = props[key];
      const at = path === "" ? key : `${path}.${key}`;
      if (child === undefined) dropped.push(at);
      else out[key] = isRecord(v) && isRecord(child) ? walk(v, child, at) : v;
    }
    return out;
  };
  const kept = isRecord(schema) ? walk(config, schema, "") : config;
  return { config: kept, dropped };
}
