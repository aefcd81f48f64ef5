import { controlSchema } from "./control-schema.js";
import { sessionsSchema } from "./sessions-schema.js";
import { isIP } from "node:net";
import { z } from "zod";
import { LOG_LEVELS } from "../common/logging.js";
import { byteSize, httpUrl, intBetween, name, names, positiveInt, text } from "./schema-parts.js";
import { authSchema, operatorIssues, operatorsSchema } from "./security-schema.js";

export { parseByteSize } from "./schema-parts.js";
import { agentCardSchema } from "./card-schema.js";
import { claudeSchema } from "./claude-schema.js";
import { limitsSchema } from "./limits-schema.js";
import { tracingSchema } from "./tracing-schema.js";
import { grpcSchema } from "./grpc-schema.js";
import { workspacesSchema, type WorkspaceSpec } from "./workspace-schema.js";
import { fleetSchema } from "./fleet-schema.js";
import { serverSandboxSchema } from "./sandbox-schema.js";
import { peersSchema } from "./peers-schema.js";
import { triggersSchema } from "./triggers-schema.js";
import { JSONRPC_CODE } from "../contract/wire-codes.js";

/** Where the config file lives, relative to the workspace. */
export const CONFIG_FILE = ".claude/claude-a2a.config.json";

/** Where `tailscale serve` connects from: the only peers whose identity headers are believed. */
export const DEFAULT_TRUSTED_PROXIES = ["127.0.0.1", "::1"] as const;

const serverSchema = z.strictObject({
  instanceId: name()
    .optional()
    .describe(
      'With store.type "postgres": this server\'s instance id in a fleet on one PostgreSQL ' +
        "store, the owner recorded on its tasks; unique per server, stable across its restarts. " +
        "Default: `<host>/<folder>-<hash>`, from the host name, the workspace folder and a hash " +
        "of its path.",
    ),
  host: name()
    .default("127.0.0.1")
    .describe(
      "Bind address. Keep the loopback default unless an authenticating proxy is in front.",
    ),
  port: intBetween(1, 65535).default(3008).describe("TCP port to listen on."),
  publicUrl: httpUrl()
    .optional()
    .describe(
      "URL advertised in the agent card's supportedInterfaces; clients follow it for every " +
        "call. Default: `http://localhost:<port>`.",
    ),
  allowedLogins: names()
    .optional()
    .describe(
      "Tailscale logins allowed to call the agent (the Tailscale-User-Login header, believed " +
        "only from trustedProxies). Unset: no gating.",
    ),
  trustedProxies: z
    .array(
      name().refine((v) => isIP(v) !== 0, {
        error: 'expected an IP address such as "127.0.0.1" or "::1"',
      }),
      { error: "expected an array of IP addresses" },
    )
    .default([...DEFAULT_TRUSTED_PROXIES])
    .describe(
      "Peers whose Tailscale-User-* identity headers are believed (where `tailscale serve` " +
        "connects from). From any other peer those headers are ignored.",
    ),
  auth: authSchema
    .prefault({})
    .describe("Authentication of callers: bearer tokens and OpenID Connect."),
  operators: operatorsSchema,
  allowUnauthenticatedRemote: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Allow a non-loopback host (or grpc.host) without auth.tokens or auth.oidc. Only set " +
        "this behind a proxy that authenticates every request.",
    ),
  bodyLimit: byteSize
    .prefault("10mb")
    .describe(
      'Largest accepted request body: bytes, or a size such as "10mb" or "512kb". A larger ' +
        "body gets a JSON 413; a larger gRPC request message, RESOURCE_EXHAUSTED.",
    ),
  pushAllowPrivateNetworks: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Allow push-notification webhooks on loopback, private, link-local and unique-local " +
        "addresses. Off: only public addresses are called.",
    ),
  compat: z
    .strictObject({
      v03: z
        .boolean({ error: "expected true or false" })
        .default(false)
        .describe(
          "Also serve A2A v0.3 clients, and requests without an A2A-Version header (which the " +
            "spec reads as v0.3), on the same URLs, through the SDK's compatibility layer. " +
            `Off: v1.0 only; such requests get ${JSONRPC_CODE.VERSION_NOT_SUPPORTED}.`,
        ),
    })
    .prefault({})
    .describe("Older versions of the A2A protocol served besides v1.0."),
  control: controlSchema,
  sandbox: serverSandboxSchema.prefault({}),
  grpc: grpcSchema
    .prefault({})
    .describe(
      "The gRPC binding (A2A over gRPC), on its own port, beside JSON-RPC and HTTP+JSON: off " +
        "unless server.grpc.port is set.",
    ),
});

/** `streaming.keepAliveMs`'s default: under every common proxy's idle cut (30 to 60 s). */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

const streamingSchema = z.strictObject({
  flushMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected 0 or more" })
    .max(10_000, { error: "expected at most 10000" })
    .default(50)
    .describe(
      "Claude's text is streamed as one artifact append per this many ms at most (0: one per " +
        "model delta); the first chunk and the text before any other event go out at once. A " +
        "long answer then costs linear time, not the square of its length, and webhooks get " +
        "one POST per flush, not per delta.",
    ),
  maxChunkChars: positiveInt()
    .default(8192)
    .describe("Text gathered up to this many characters is published at once."),
  keepAliveMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected 0 or more" })
    .max(300_000, { error: "expected at most 300000" })
    .default(DEFAULT_KEEP_ALIVE_MS)
    .describe(
      "An SSE answer (a streamed send, a subscription, its replay) sends the comment line " +
        "`: keep-alive` after this many ms without an event, so a client's read timeout or a " +
        "proxy's idle cut never ends it while a tool runs; the gRPC binding pings its " +
        "connections (HTTP/2 keepalive) at the same interval. 0: neither.",
    ),
});

const replaySchema = z.strictObject({
  enabled: z
    .boolean()
    .default(true)
    .describe(
      "Number every task event (metadata.eventNumber, the SSE id), keep it for replay from a " +
        "cursor (Last-Event-ID), and answer a repeated messageId with its task instead of " +
        "running it again. Off: no numbers, no replay, no idempotency (docs/reliability.md).",
    ),
  retainMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected 0 or more" })
    .default(3_600_000)
    .describe(
      "How long a finished task's events and its sends' idempotency keys are kept after it " +
        "ends (ms; live tasks keep theirs while they live). A cursor older than that is refused.",
    ),
});

const artifactsSchema = z.strictObject({
  maxFileBytes: byteSize
    .prefault("1mb")
    .describe(
      "Largest created or modified file whose content is attached to its artifact; a larger " +
        'file gets a note instead. Bytes, or a size such as "1mb".',
    ),
  maxToolOutputBytes: byteSize
    .prefault("16kb")
    .describe(
      "Largest tool call output (and each string of a tool call's input) a client is shown on " +
        "the stream (`tool_result` and `tool_use` statuses); longer ones are cut, saying so. " +
        'Bytes, or a size such as "16kb".',
    ),
});

const logSchema = z.strictObject({
  level: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(", ")}` })
    .default("info")
    .describe(
      `Log level: ${LOG_LEVELS.join(", ")}. The LOG_LEVEL environment variable, when set, ` +
        "overrides it.",
    ),
});

/** Where the SQLite store lives by default, relative to the workspace (`claude.cwd`). */
export const DEFAULT_SQLITE_PATH = ".claude/claude-a2a.db";

const retainDays = () =>
  z
    .int({ error: "expected a whole number of days (0 keeps everything)" })
    .min(0, { error: "expected a whole number of days (0 keeps everything)" })
    .default(30)
    .describe(
      "Terminal tasks whose last status is older than this many days are deleted, with their " +
        "inbox folder, at startup and daily. 0 keeps everything.",
    );

const storeSchema = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({
        type: z.literal("sqlite"),
        path: name()
          .default(DEFAULT_SQLITE_PATH)
          .describe("The SQLite database file; a relative path resolves against claude.cwd."),
        retainDays: retainDays(),
      }),
      z.strictObject({
        type: z.literal("postgres"),
        url: name()
          .regex(/^postgres(ql)?:\/\//, {
            error: 'expected a "postgres://" or "postgresql://" URL',
          })
          .describe("PostgreSQL connection URL (postgres://user:password@host:port/database)."),
        retainDays: retainDays(),
      }),
      z.strictObject({ type: z.literal("memory") }),
    ],
    { error: 'expected "type" to be "sqlite", "postgres" or "memory"' },
  )
  .default({ type: "sqlite", path: DEFAULT_SQLITE_PATH, retainDays: 30 })
  .describe(
    "Where tasks and push-notification configs are kept: SQLite (default), PostgreSQL, or memory " +
      "(lost at restart).",
  );

/** A merge only an operator may approve needs an operator: else no one ever could. */
function mergeApproverIssue(
  c: {
    server: { operators: readonly string[] };
    claude: { delivery?: { approvedBy: string; allowedTargets: readonly string[] } | undefined };
  },
  ctx: z.RefinementCtx,
): void {
  const d = c.claude.delivery;
  if (d?.approvedBy !== "operator" || !d.allowedTargets.includes("merge")) return;
  if (c.server.operators.length > 0) return;
  ctx.addIssue({
    code: "custom",
    path: ["claude", "delivery", "approvedBy"],
    input: d.approvedBy,
    message:
      "only an operator may approve a merge, but server.operators names no one: no merge " +
      'could ever be approved (name an operator, or "caller")',
  });
}

export const configSchema = z
  .strictObject({
    $schema: text().optional().describe("JSON Schema of this file, for editors."),
    server: serverSchema.superRefine(operatorIssues).prefault({}),
    agentCard: agentCardSchema.prefault({}),
    claude: claudeSchema.prefault({}),
    sessions: sessionsSchema.prefault({}),
    artifacts: artifactsSchema.prefault({}),
    streaming: streamingSchema.prefault({}),
    replay: replaySchema.prefault({}),
    log: logSchema.prefault({}),
    store: storeSchema,
    limits: limitsSchema,
    tracing: tracingSchema,
    workspaces: workspacesSchema,
    peers: peersSchema.prefault({}),
    fleet: fleetSchema.prefault({}),
    triggers: triggersSchema,
  })
  .superRefine(mergeApproverIssue)
  .meta({
    title: "claude-a2a configuration",
    description:
      "Settings of claude-a2a, read from .claude/claude-a2a.config.json in the working directory.",
  });

/** What a config file may contain: every key optional. */
export type ConfigInput = z.input<typeof configSchema>;
type ParsedConfig = z.output<typeof configSchema>;

/** The fully defaulted configuration the server runs with. */
export type Config = Omit<ParsedConfig, "$schema" | "server" | "claude" | "workspaces"> & {
  server: Omit<ParsedConfig["server"], "publicUrl"> & { publicUrl: string };
  claude: Omit<ParsedConfig["claude"], "cwd"> & { cwd: string };
  /** The workspaces served under `/agents/<name>/`; empty: `claude.cwd` at the root. */
  workspaces: readonly WorkspaceSpec[];
};

/** The JSON Schema of a config file (input side: keys with defaults are optional). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, { io: "input", target: "draft-7" });
}
