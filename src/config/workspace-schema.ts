import { z } from "zod";
import { agentCardSchema } from "./card-schema.js";
import { claudeSchema } from "./claude-schema.js";
import { workspacePeersSchema, type WorkspacePeers } from "./peers-schema.js";
import { name, names, positiveInt } from "./schema-parts.js";
import { WORKSPACE_NAME, WORKSPACE_NAME_ERROR } from "./workspace-names.js";
import { triggerEntriesSchema, type TriggersConfig } from "./triggers-schema.js";

/**
 * The `workspaces` section of the config: several directories served by one server, each its own
 * A2A agent under `/agents/<name>/`. Unset (or empty): the one directory `claude.cwd` at the root,
 * as without this section.
 */

export { WORKSPACE_NAME, WORKSPACE_NAME_ERROR } from "./workspace-names.js";

const callersSchema = z
  .strictObject({
    tokens: names()
      .optional()
      .describe("Names of server.auth.tokens whose holders may call this workspace."),
    logins: names()
      .optional()
      .describe("Tailscale logins (of server.allowedLogins) that may call this workspace."),
    subjects: names()
      .optional()
      .describe("OpenID Connect subjects (server.auth.oidc.subjectClaim) that may call it."),
  })
  .describe(
    "Who may call this workspace, among those the server lets in; a caller listed nowhere gets " +
      "403. Unset: everyone who may call the server.",
  );

export const workspaceSchema = z.strictObject({
  cwd: name().describe(
    "The workspace's directory: Claude's working directory, where its session file, inbox and " +
      "SQLite store live. Relative paths resolve against the directory the server was started " +
      "in. --workspace <name>=<dir> sets it too.",
  ),
  agentCard: agentCardSchema
    .omit({ signing: true })
    .partial()
    .optional()
    .describe(
      "Keys of agentCard that differ for this workspace, each replacing the top-level one " +
        "whole (signing is the server's); its name defaults to <agentCard.name> (<name>). " +
        "Default: the top-level agentCard.",
    ),
  claude: claudeSchema
    .omit({ cwd: true })
    .partial()
    .optional()
    .describe(
      "Keys of claude (but cwd) that differ for this workspace, each replacing the top-level " +
        "one. Default: the top-level claude.",
    ),
  sessions: z
    .strictObject({
      maxLive: positiveInt()
        .optional()
        .describe(
          "Most Claude Code processes of this workspace at once, within sessions.maxLive (which " +
            "stays the cap of the whole server). Default: only sessions.maxLive.",
        ),
    })
    .optional()
    .describe("Per-workspace session caps."),
  callers: callersSchema.optional(),
  peers: workspacePeersSchema.optional(),
  triggers: triggerEntriesSchema.optional(),
});

export const workspacesSchema = z
  .record(z.string().regex(WORKSPACE_NAME, { error: WORKSPACE_NAME_ERROR }), workspaceSchema, {
    // A bad name is the key's issue; anything else, the section's shape.
    error: (issue) =>
      issue.code === "invalid_key"
        ? WORKSPACE_NAME_ERROR
        : "expected an object of workspaces by name",
  })
  .optional()
  .describe(
    "Several directories served by one server, by name (lowercase letters, digits, inner " +
      "hyphens): each is its own A2A agent under /agents/<name>/ (card, JSON-RPC, HTTP+JSON). " +
      "Unset: claude.cwd is served at the root.",
  );

export type WorkspaceInput = z.input<typeof workspaceSchema>;
export type WorkspaceEntry = z.output<typeof workspaceSchema>;
export type WorkspaceCallers = NonNullable<WorkspaceEntry["callers"]>;

/** One served workspace, resolved: the overrides hold only the keys the config file wrote. */
export interface WorkspaceSpec {
  readonly name: string;
  /** Absolute. */
  readonly cwd: string;
  readonly agentCard: Partial<z.output<typeof agentCardSchema>>;
  readonly claude: Partial<Omit<z.output<typeof claudeSchema>, "cwd">>;
  /** `sessions.maxLive` of this workspace alone, when set. */
  readonly maxLive?: number | undefined;
  /** Who may call it; undefined: everyone the server lets in. */
  readonly callers?: WorkspaceCallers | undefined;
  /** Its own peers and the siblings it may call (docs/peers.md); undefined: peers.agents only. */
  readonly peers?: WorkspacePeers | undefined;
  /** Its triggers (docs/triggers.md); undefined: none. */
  readonly triggers?: TriggersConfig | undefined;
}
