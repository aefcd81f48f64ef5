import type { PermissionMode, SettingSource } from "@anthropic-ai/claude-agent-sdk";
import { isIP } from "node:net";
import { z } from "zod";
import { DEFAULT_INPUT_MODES, DEFAULT_OUTPUT_MODES } from "../media-types.js";
import { LOG_LEVELS } from "../logging.js";
import {
  byteSize,
  httpUrl,
  intBetween,
  mediaTypes,
  minutes,
  name,
  names,
  positiveInt,
  text,
} from "./schema-parts.js";
import { authSchema, signingSchema } from "./security-schema.js";

export { parseByteSize } from "./schema-parts.js";
import { limitsSchema } from "./limits-schema.js";
import { tracingSchema } from "./tracing-schema.js";

/** Where the config file lives, relative to the workspace. */
export const CONFIG_FILE = ".claude/claude-a2a.config.json";

export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto",
] as const;
export const SETTING_SOURCES = ["user", "project", "local"] as const;

// Fails to compile when the Agent SDK adds or drops a value, so the schema cannot silently drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _permissionModesMatchSdk: Same<(typeof PERMISSION_MODES)[number], PermissionMode> = true;
const _settingSourcesMatchSdk: Same<(typeof SETTING_SOURCES)[number], SettingSource> = true;

/** Where `tailscale serve` connects from: the only peers whose identity headers are believed. */
export const DEFAULT_TRUSTED_PROXIES = ["127.0.0.1", "::1"] as const;

const serverSchema = z.strictObject({
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
});

const skillSchema = z.strictObject({
  id: name().describe("Unique identifier of the skill."),
  name: name().describe("Human-readable name of the skill."),
  description: text().describe("What the skill does."),
  tags: names().default([]).describe("Keywords describing the skill."),
  examples: z.array(text()).optional().describe("Example prompts the skill handles."),
  inputModes: mediaTypes()
    .optional()
    .describe("Input media types of this skill; accepted in messages besides the defaults."),
  outputModes: mediaTypes()
    .optional()
    .describe("Output media types of this skill, overriding the agent's defaults."),
});

const DEFAULT_SKILL = {
  id: "claude-code",
  name: "Claude Code",
  description:
    "Reads, edits and creates files and runs commands in its working directory to carry out " +
    "software engineering tasks.",
  tags: ["coding", "files", "shell"],
};

const agentCardSchema = z.strictObject({
  name: name().default("Claude Code").describe("Agent name shown to clients."),
  description: text()
    .default("A Claude Code agent working in one directory, exposed over the A2A protocol.")
    .describe("What the agent is for."),
  version: name().optional().describe("Agent version. Default: the claude-a2a package version."),
  provider: z
    .strictObject({ organization: name(), url: httpUrl() })
    .optional()
    .describe("Organization providing the agent."),
  documentationUrl: httpUrl().optional().describe("URL of the agent's documentation."),
  iconUrl: httpUrl().optional().describe("URL of an icon for the agent."),
  capabilities: z
    .strictObject({
      streaming: z
        .boolean({ error: "expected true or false" })
        .default(true)
        .describe("Advertise (and serve) SendStreamingMessage and SubscribeToTask."),
      pushNotifications: z
        .boolean({ error: "expected true or false" })
        .default(true)
        .describe(
          "Advertise (and serve) push-notification webhooks: every status and artifact update " +
            "of a task is POSTed to the webhooks registered for it.",
        ),
    })
    .prefault({}),
  defaultInputModes: mediaTypes()
    .min(1, { error: "expected at least one media type" })
    .default([...DEFAULT_INPUT_MODES])
    .describe(
      "Media types accepted in message parts; a part of another type is refused " +
        "(ContentTypeNotSupported). Default: text, JSON data, images and documents Claude reads.",
    ),
  defaultOutputModes: mediaTypes()
    .default([...DEFAULT_OUTPUT_MODES])
    .describe("Media types the agent produces (listed in the card)."),
  skills: z
    .array(skillSchema, { error: "expected an array of skills" })
    .default([DEFAULT_SKILL])
    .describe("Skills listed in the agent card."),
  signing: signingSchema
    .optional()
    .describe(
      "Sign the public and the extended card (JWS, A2A v1.0 §8.4) with this key. Unset: unsigned.",
    ),
});

const claudeSchema = z.strictObject({
  cwd: name()
    .optional()
    .describe(
      "Working directory for Claude, also where the session file lives. Relative paths resolve " +
        "against the directory the server was started in. Default: the current directory.",
    ),
  permissionMode: z
    .enum(PERMISSION_MODES)
    .default("acceptEdits")
    .describe("Agent SDK permission mode."),
  model: name().optional().describe("Model id. Default: the SDK's default."),
  allowedTools: names().optional().describe("Tools usable without a permission prompt."),
  disallowedTools: names().optional().describe("Tools Claude may never use."),
  settingSources: z
    .array(z.enum(SETTING_SOURCES))
    .default([...SETTING_SOURCES])
    .describe("Claude Code settings to load (CLAUDE.md, settings.json, slash commands)."),
  maxTurns: positiveInt().optional().describe("Hard cap on agent turns per task. Default: none."),
  maxBudgetUsd: z
    .number({ error: "expected a number of US dollars greater than 0" })
    .positive({ error: "expected a number of US dollars greater than 0" })
    .optional()
    .describe(
      "Most a task may spend (USD, the runtime's estimate): checked as each of its runs ends, " +
        "the task fails once it has spent more. A message's metadata.maxBudgetUsd may lower it " +
        "for its task, never raise it. Default: none.",
    ),
  permissionPrompts: z
    .enum(["input-required", "deny"])
    .default("input-required")
    .describe("Bridge permission prompts to the client as input-required, or deny them outright."),
  maxPermissionDenials: positiveInt()
    .default(3)
    .describe("Permission denials a task may collect before it is stopped."),
  inputTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe(
      "Fail a task left in input-required this long (ms): a parked task must not hold its " +
        "context forever.",
    ),
  backgroundTasks: z
    .enum(["wait", "detach"], { error: 'expected "wait" or "detach"' })
    .default("wait")
    .describe(
      'Background work a turn starts (background Bash, background subagents): "wait" keeps the ' +
        "task working until that work and the runs it wakes are done, and streams them into it; " +
        '"detach" completes the task at its turn\'s result, and what the work wakes later ' +
        "arrives as a new (autonomous) task in the context.",
    ),
  backgroundWaitTimeoutMs: positiveInt()
    .default(minutes(30))
    .describe(
      'With "wait": longest a task waits for its background work (ms); then it completes, ' +
        "and what the work produces later arrives as a new task.",
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
    server: serverSchema.prefault({}),
    agentCard: agentCardSchema.prefault({}),
    claude: claudeSchema.prefault({}),
    sessions: sessionsSchema.prefault({}),
    artifacts: artifactsSchema.prefault({}),
    streaming: streamingSchema.prefault({}),
    log: logSchema.prefault({}),
    store: storeSchema,
    limits: limitsSchema,
    tracing: tracingSchema,
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
export type Config = Omit<ParsedConfig, "$schema" | "server" | "claude"> & {
  server: Omit<ParsedConfig["server"], "publicUrl"> & { publicUrl: string };
  claude: Omit<ParsedConfig["claude"], "cwd"> & { cwd: string };
};

/** The JSON Schema of a config file (input side: keys with defaults are optional). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, { io: "input", target: "draft-7" });
}
