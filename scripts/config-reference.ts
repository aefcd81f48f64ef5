/**
 * The configuration reference of docs/configuration.md, built from the config file's JSON Schema
 * (config.schema.json, itself generated from src/config/schema.ts): one table per top-level
 * section, one row per key, its default and its `describe` text. Pure: scripts/
 * generate-config-schema.ts writes it between the page's markers, and a unit test fails when the
 * committed page differs.
 */

/** The parts of a JSON Schema node this reads. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
}

export interface Row {
  key: string;
  default: string;
  notes: string;
}

/** Where a key is explained at length: its row ends "See [text](href)." (hrefs from docs/). */
export const SEE: Readonly<Record<string, readonly [string, string]>> = {
  "server.host": ["Security", "security.md#who-can-connect"],
  "server.allowedLogins": ["Ways to authenticate", "security.md#ways-to-authenticate"],
  "server.trustedProxies": ["Ways to authenticate", "security.md#ways-to-authenticate"],
  "server.auth.tokens": ["Ways to authenticate", "security.md#ways-to-authenticate"],
  "server.auth.oidc": ["OpenID Connect", "security.md#openid-connect"],
  "server.operators": ["Operators", "security.md#operators"],
  "server.allowUnauthenticatedRemote": ["Who can connect", "security.md#who-can-connect"],
  "server.pushAllowPrivateNetworks": ["Push notifications", "tasks.md#push-notifications"],
  "server.compat.v03": ["v0.3 clients", "bindings.md#v03-clients-and-header-less-requests"],
  "server.grpc": ["gRPC", "bindings.md#grpc"],
  "server.instanceId": ["Several servers", "storage.md#several-servers"],
  "agentCard.capabilities.pushNotifications": ["Push notifications", "tasks.md#push-notifications"],
  "agentCard.defaultInputModes": ["The agent card", "protocol.md#the-agent-card"],
  "agentCard.signing": ["Signed card", "protocol.md#signed-card"],
  "claude.model": ["Per-task model and effort", "protocol.md#per-task-model-and-effort"],
  "claude.effort": ["Per-task model and effort", "protocol.md#per-task-model-and-effort"],
  "claude.settingSources": ["Claude options passed through", "#claude-options-passed-through"],
  "claude.maxBudgetUsd": ["Cost and limits", "limits.md#cost-and-limits"],
  "claude.permissionPrompts": ["Interactive tasks", "protocol.md#interactive-tasks-input-required"],
  "claude.maxPermissionDenials": ["Loop protection", "protocol.md#loop-protection"],
  "claude.backgroundTasks": ["Background work", "tasks.md#background-work"],
  "claude.isolation": ["Isolation", "workspaces.md#isolation"],
  "claude.allowedModels": ["Per-task model and effort", "protocol.md#per-task-model-and-effort"],
  "claude.allowedEfforts": ["Per-task model and effort", "protocol.md#per-task-model-and-effort"],
  "claude.fallbackModel": ["Claude options passed through", "#claude-options-passed-through"],
  "claude.mcpServers": ["Claude options passed through", "#claude-options-passed-through"],
  "claude.agents": ["Claude options passed through", "#claude-options-passed-through"],
  "claude.env": ["Claude options passed through", "#claude-options-passed-through"],
  "sessions.maxLive": ["Limits", "limits.md#limits"],
  "sessions.minIdleBeforeEvictMs": ["Limits", "limits.md#limits"],
  "sessions.maxBackgroundMs": ["Limits", "limits.md#limits"],
  "log.level": ["Logs", "observability.md#logs"],
  "store.type": ["Storage", "storage.md#storage"],
  "store.retainDays": ["Retention", "storage.md#retention"],
  "limits.default": ["Limits per caller", "limits.md#limits-per-caller"],
  "limits.callers": ["Limits per caller", "limits.md#limits-per-caller"],
  tracing: ["Tracing", "observability.md#tracing"],
  workspaces: ["Workspaces", "workspaces.md#workspaces"],
  fleet: ["Several servers", "storage.md#several-servers"],
};

/** Keys whose children get no rows: the top-level section's keys again, or said in its row. */
const NOT_EXPANDED = new Set([
  "workspaces.<name>.agentCard",
  "workspaces.<name>.claude",
  // Their entries' keys are said in the key's own row.
  "server.auth.oidc.keys",
  "limits.callers",
]);

/** Maps (an object keyed by names the user chooses) whose entries get rows of their own. */
const EXPANDED_MAPS = new Set(["workspaces"]);

const UNITS: readonly [number, string][] = [
  [3_600_000, "h"],
  [60_000, "min"],
  [1_000, "s"],
];

/** A duration in ms, for people: `1800000` is "30 min". Undefined below a second or when odd. */
export function humanMs(ms: number): string | undefined {
  for (const [size, unit] of UNITS) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return undefined;
}

/** A describe text as Markdown: code spans kept, `<`, `>`, `|` and `*` outside them escaped. */
export function markdownText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/\|/g, "\\|")
        : part
            .replace(/&/g, "&amp;")
            .replace(/</g, "&lt;")
            .replace(/>/g, "&gt;")
            .replace(/\|/g, "\\|")
            .replace(/\*/g, "\\*"),
    )
    .join("");
}

/** A default written as the config file would hold it, in a code span. */
function codeDefault(value: unknown): string {
  return `\`${JSON.stringify(value).replace(/\|/g, "\\|")}\``;
}

/**
 * A describe text's trailing "Default: …." or "Unset: …." sentence, split off as the default
 * column's text: [the rest, the default].
 */
export function splitDefault(description: string): [string, string | undefined] {
  const spoken = /^(.*?)\s*Default: (.+?)\.?$/s.exec(description);
  if (spoken !== null) return [spoken[1] ?? "", spoken[2]];
  const unset = /^(.*?)\s*Unset: (.+?)\.?$/s.exec(description);
  if (unset !== null) return [unset[1] ?? "", `unset (${unset[2]})`];
  return [description, undefined];
}

/** One row: its default from the text's "Default:" sentence, else the schema's, else unset. */
function row(key: string, node: SchemaNode, required: boolean, prefix = ""): Row {
  const [text, spoken] = splitDefault(node.description ?? "");
  let value: string;
  if (spoken !== undefined) value = markdownText(spoken);
  else if (node.properties !== undefined && JSON.stringify(node.default) === "{}") value = "";
  else if (node.default !== undefined) {
    value = codeDefault(node.default);
    const human = typeof node.default === "number" && /Ms$/.test(key) && humanMs(node.default);
    if (human) value += ` (${human})`;
  } else value = required ? "required" : "unset";
  const see = SEE[key];
  const notes = [prefix + markdownText(text), see && `See [${see[0]}](${see[1]}).`]
    .filter((s) => s !== undefined && s.trim() !== "")
    .join(" ");
  return { key, default: value, notes };
}

const isObject = (n: SchemaNode): boolean => n.type === "object" || n.properties !== undefined;
const isMap = (n: SchemaNode): boolean =>
  typeof n.additionalProperties === "object" && n.propertyNames !== undefined;

/** A union of objects told apart by a `type` constant (`store`): its branches' type names. */
function taggedBranches(n: SchemaNode): SchemaNode[] | undefined {
  const branches = n.oneOf ?? n.anyOf;
  if (branches === undefined) return undefined;
  return branches.every((b) => b.properties?.type?.const !== undefined) ? branches : undefined;
}

/** The rows of one node and everything under it. */
function rowsOf(key: string, node: SchemaNode, required: boolean): Row[] {
  const branches = taggedBranches(node);
  if (branches !== undefined) return unionRows(key, node, branches);
  const rows: Row[] = [];
  const hasChildren = isObject(node) && node.properties !== undefined && !NOT_EXPANDED.has(key);
  // An always-present group (default {}) with nothing to say gets no row of its own.
  const silentGroup =
    hasChildren && node.description === undefined && JSON.stringify(node.default) === "{}";
  if (!silentGroup) rows.push(row(key, node, required));
  if (hasChildren) rows.push(...childRows(key, node));
  if (node.items?.properties !== undefined && !NOT_EXPANDED.has(key)) {
    rows.push(...childRows(`${key}[]`, node.items));
  }
  if (isMap(node) && EXPANDED_MAPS.has(key)) {
    rows.push(...rowsOf(`${key}.<name>`, node.additionalProperties as SchemaNode, false).slice(1));
  }
  return rows;
}

function childRows(key: string, node: SchemaNode): Row[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) =>
    rowsOf(`${key}.${name}`, child, required.has(name)),
  );
}

/** `store`: one `type` row, then each branch's keys, saying with which types they apply. */
function unionRows(key: string, node: SchemaNode, branches: SchemaNode[]): Row[] {
  const types = branches.map((b) => JSON.stringify(b.properties?.type?.const));
  const tag = (node.default as { type?: unknown } | undefined)?.type;
  const first = row(`${key}.type`, { ...node, default: tag }, false);
  first.notes = `${types.join(", ")}. ${first.notes}`;
  const rows = [first];
  const names = [...new Set(branches.flatMap((b) => Object.keys(b.properties ?? {})))];
  for (const name of names.filter((n) => n !== "type")) {
    const having = branches.filter((b) => b.properties?.[name] !== undefined);
    const withTypes = having.map((b) => `\`${JSON.stringify(b.properties?.type?.const)}\``);
    const required = having.every((b) => b.required?.includes(name) === true);
    const child = having[0]?.properties?.[name] ?? {};
    const r = row(`${key}.${name}`, child, false, `With ${withTypes.join(" or ")}: `);
    if (required && child.default === undefined && r.default === "unset") {
      r.default = `required with ${withTypes.join(" or ")}`;
    }
    rows.push(r);
  }
  return rows;
}

const escapeKey = (key: string) => `\`${key}\``;

/** The whole reference: per top-level section, its description and a table of its keys. */
export function configReference(schema: SchemaNode): string {
  const out: string[] = [];
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (name === "$schema") continue;
    out.push(`### \`${name}\``, "");
    out.push("| Key | Default | Notes |", "| --- | --- | --- |");
    for (const r of rowsOf(name, node, false)) {
      out.push(`| ${escapeKey(r.key)} | ${r.default} | ${r.notes} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
