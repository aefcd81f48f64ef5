import { isIP } from "node:net";
import { z } from "zod";
import { LOG_LEVELS } from "../common/logging.js";
import {
  byteSize,
  httpUrl,
  intBetween,
  minutes,
  name,
  names,
  positiveInt,
  text,
} from "./schema-parts.js";
import { authSchema, operatorIssues, operatorsSchema } from "./security-schema.js";

export { parseByteSize } from "./schema-parts.js";
import { agentCardSchema } from "./card-schema.js";
import { claudeSchema } from "./claude-schema.js";
import { limitsSchema } from "./limits-schema.js";
import { tracingSchema } from "./tracing-schema.js";
import { grpcSchema } from "./grpc-schema.js";
import { workspacesSchema, type WorkspaceSpec } from "./workspace-schema.js";
import { fleetSchema } from "./fleet-schema.js";

export { PERMISSION_MODES, SETTING_SOURCES } from "./claude-schema.js";

/** Where the config file lives, relative to the workspace. */
export const CONFIG_FILE = ".claude/claude-a2a.config.json";

/** Where `tailscale serve` connects from: the only peers whose identity headers are believed. */
export const DEFAULT_TRUSTED_PROXIES = ["127.0.0.1", "::1"] as const;

const serverSchema = z.strictObject({
  instanceId: name()
    .optional()
    .describe(
      "This server's instance id in a fleet on one PostgreSQL store: the owner recorded on its " +
        "tasks, stable across its restarts. Default: derived from the host name and claude.cwd.",
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
      "URL advertised in the agent card's supportedInterfaces. Default: http://localhost:<port>.",
    ),
  allowedLogins: names()
    .optional()
    .describe(
      "Tailscale logins allowed to call the agent (Tailscale-User-Login header, honoured only " +
        "from trustedProxies). Unset: no gating.",
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
      "Allow binding a non-loopback host without auth.tokens or auth.oidc. Only set this behind a proxy " +
        "that authenticates every request.",
    ),
  bodyLimit: byteSize
    .prefault("10mb")
    .describe('Largest accepted request body: bytes, or a size such as "10mb" or "512kb".'),
  pushAllowPrivateNetworks: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Allow push-notification webhooks on loopback, private, link-local and unique-local " +
        "addresses. Default: only public addresses are called.",
    ),
  compat: z
    .strictObject({
      v03: z
        .boolean({ error: "expected true or false" })
        .default(false)
        .describe(
          "Also serve A2A v0.3 clients, and requests without an A2A-Version header (which the " +
            "spec reads as v0.3), on the same URLs, through the SDK's compatibility layer. " +
            "Default: v1.0 only; such requests get -32009.",
        ),
    })
    .prefault({})
    .describe("Older versions of the A2A protocol served besides v1.0."),
  grpc: grpcSchema
    .prefault({})
    .describe(
      "The gRPC binding (A2A over gRPC), on its own port, beside JSON-RPC and HTTP+JSON: off " +
        "unless server.grpc.port is set.",
    ),
});

const sessionsSchema = z.strictObject({
  idleTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe("Close a live Claude session idle this long (ms); it resumes on the next message."),
  maxLive: positiveInt().default(8).describe("Most Claude sessions kept live at once."),
  minIdleBeforeEvictMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected a whole number of milliseconds" })
    .default(1_000)
    .describe(
      "The eviction grace (ms): when a conversation needs a process and every slot of maxLive " +
        "is taken, the least recently used idle session is closed at once, but one idle for " +
        "less than this (its last turn just ended) only after every other idle one. It never " +
        "makes a conversation wait.",
    ),
  spares: z
    .int({ error: "expected a whole number of spare processes (0: none)" })
    .min(0, { error: "expected a whole number of spare processes (0: none)" })
    .max(8, { error: "expected at most 8 spare processes" })
    .default(1)
    .describe(
      "Claude Code processes kept started ahead, with the workspace's options, so that a new " +
        "conversation takes one instead of waiting for a process to start (about 160 MB of " +
        "memory each while idle, see docs/spares.md). They count against maxLive and are the " +
        "first closed when a conversation needs a slot. 0: none.",
    ),
  spareIdleMs: positiveInt()
    .default(minutes(30))
    .describe(
      "A spare process not taken for this long (ms) is replaced by a fresh one; one started " +
        "before the workspace's settings or CLAUDE.md changed is replaced at once.",
    ),
  maxBackgroundMs: z
    .int({ error: "expected a whole number of milliseconds (0: never)" })
    .min(0, { error: "expected a whole number of milliseconds (0: never)" })
    .default(4 * 60 * 60_000)
    .describe(
      "A session whose only activity is background work (a dev server, a watcher) counts as " +
        "busy; after this long (ms) with no message of a client running in it, its background " +
        "work is stopped and the session can be closed. 0: never stop it.",
    ),
});

const streamingSchema = z.strictObject({
  flushMs: z
    .int({ error: "expected a whole number of milliseconds" })
    .min(0, { error: "expected 0 or more" })
    .max(10_000, { error: "expected at most 10000" })
    .default(50)
    .describe(
      "Claude's text is streamed as one artifact append per this many ms at most (0: one per " +
        "model delta); the first chunk and the text before any other event go out at once.",
    ),
  maxChunkChars: positiveInt()
    .default(8192)
    .describe("Text gathered up to this many characters is published at once."),
});

const artifactsSchema = z.strictObject({
  maxFileBytes: byteSize
    .prefault("1mb")
    .describe(
      "Largest created or modified file whose content is attached to its artifact; a larger " +
        'file gets a note instead. Bytes, or a size such as "1mb".',
    ),
});

const logSchema = z.strictObject({
  level: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(", ")}` })
    .default("info")
    .describe("Log level. The LOG_LEVEL environment variable, when set, overrides it."),
});

/** Where the SQLite store lives by default, relative to the workspace (`claude.cwd`). */
export const DEFAULT_SQLITE_PATH = ".claude/claude-a2a.db";

const retainDays = () =>
  z
    .int({ error: "expected a whole number of days (0 keeps everything)" })
    .min(0, { error: "expected a whole number of days (0 keeps everything)" })
    .default(30)
    .describe(
      "Terminal tasks (and their inbox folders) older than this many days are deleted at " +
        "startup and daily. 0 keeps everything.",
    );

const storeSchema = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({
        type: z.literal("sqlite"),
        path: name()
          .default(DEFAULT_SQLITE_PATH)
          .describe("SQLite file; a relative path resolves against claude.cwd."),
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

export const configSchema = z
  .strictObject({
    $schema: text().optional().describe("JSON Schema of this file, for editors."),
    server: serverSchema.superRefine(operatorIssues).prefault({}),
    agentCard: agentCardSchema.prefault({}),
    claude: claudeSchema.prefault({}),
    sessions: sessionsSchema.prefault({}),
    artifacts: artifactsSchema.prefault({}),
    streaming: streamingSchema.prefault({}),
    log: logSchema.prefault({}),
    store: storeSchema,
    limits: limitsSchema,
    tracing: tracingSchema,
    workspaces: workspacesSchema,
    fleet: fleetSchema.prefault({}),
  })
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
