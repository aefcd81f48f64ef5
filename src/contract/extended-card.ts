import type { AgentCard, AgentExtension, AgentSkill } from "@a2a-js/sdk";

/**
 * The authenticated extended card: the public card plus what only a caller the server knows may
 * read. Names, descriptions and settings only: never a secret, a file's content or a path.
 */

/** A data-only extension: the workspace's Claude settings, in `params`. */
export const WORKSPACE_EXTENSION_URI = "urn:claude-a2a:workspace:v1";

/** A slash command (`.claude/commands/<name>.md`) or subagent (`.claude/agents/<name>.md`). */
export interface ProjectEntry {
  readonly name: string;
  /** Its frontmatter `description`; undefined when it has none. */
  readonly description: string | undefined;
}

export interface WorkspaceFacts {
  /** `claude.model`; undefined: the SDK's default. */
  readonly model: string | undefined;
  readonly permissionMode: string;
  readonly commands: readonly ProjectEntry[];
  readonly agents: readonly ProjectEntry[];
}

const skill = (s: Pick<AgentSkill, "id" | "name" | "description" | "tags" | "examples">) => ({
  ...s,
  inputModes: [],
  outputModes: [],
  securityRequirements: [],
});

export function commandSkill(entry: ProjectEntry): AgentSkill {
  return skill({
    id: `command:${entry.name}`,
    name: `/${entry.name}`,
    description: entry.description ?? `The project's /${entry.name} slash command.`,
    tags: ["slash-command"],
    examples: [`/${entry.name}`],
  });
}

export function agentSkill(entry: ProjectEntry): AgentSkill {
  return skill({
    id: `agent:${entry.name}`,
    name: entry.name,
    description: entry.description ?? `The project's ${entry.name} subagent.`,
    tags: ["subagent"],
    examples: [],
  });
}

export function workspaceExtension(facts: WorkspaceFacts): AgentExtension {
  return {
    uri: WORKSPACE_EXTENSION_URI,
    description: "The Claude Code settings this agent runs with.",
    required: false,
    params: {
      ...(facts.model !== undefined && { model: facts.model }),
      permissionMode: facts.permissionMode,
    },
  };
}

/** The extended card of `card` (its signatures dropped: a card is signed as a whole). Pure. */
export function buildExtendedCard(card: AgentCard, facts: WorkspaceFacts): AgentCard {
  const capabilities = card.capabilities ?? { extensions: [] };
  return {
    ...card,
    capabilities: {
      ...capabilities,
      extensions: [...capabilities.extensions, workspaceExtension(facts)],
    },
    skills: [...card.skills, ...facts.commands.map(commandSkill), ...facts.agents.map(agentSkill)],
    signatures: [],
  };
}

/** GetExtendedAgentCard from a caller the server does not know (the gate lets none through). */
export const EXTENDED_CARD_NEEDS_CALLER =
  "The extended agent card is served only to an authenticated caller.";
