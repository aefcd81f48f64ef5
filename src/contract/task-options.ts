import type { AgentCard, AgentExtension } from "@a2a-js/sdk";

/**
 * A task's model and effort, as a client asks for them: the `metadata` keys of the message that
 * creates the task, and the card's declaration of what this server allows.
 */
export const MODEL_KEY = "model";
export const EFFORT_KEY = "effort";

/** The declared extension (an identifier, not a document); its last segment is its version. */
export const TASK_OPTIONS_EXTENSION_URI =
  "https://github.com/claude-a2a/claude-a2a/extensions/task-options/v1";

/** What a message may ask for: the defaults (what runs when it asks for nothing) and the rest. */
export interface ModelPolicy {
  /** `claude.model` (unset: the runtime's default, which no message can name). */
  readonly defaultModel: string | undefined;
  /** `claude.allowedModels`. */
  readonly allowedModels: readonly string[];
  /** `claude.effort` (unset: the model's own). */
  readonly defaultEffort: string | undefined;
  /** `claude.allowedEfforts`. */
  readonly allowedEfforts: readonly string[];
}

/** A workspace's `claude` config, as far as a message's choice goes (plain values: this is a leaf). */
export interface ModelSettings {
  readonly model?: string | undefined;
  readonly allowedModels: readonly string[];
  readonly effort?: string | undefined;
  readonly allowedEfforts: readonly string[];
}

/** What a message may choose, from a workspace's `claude` config. */
export const modelPolicyOf = (claude: ModelSettings): ModelPolicy => ({
  defaultModel: claude.model,
  allowedModels: claude.allowedModels,
  defaultEffort: claude.effort,
  allowedEfforts: claude.allowedEfforts,
});

const withDefault = (value: string | undefined, allowed: readonly string[]): string[] => [
  ...new Set([...(value === undefined ? [] : [value]), ...allowed]),
];

/** Every model a message may name: the default first. Pure. */
export const modelsAllowed = (p: ModelPolicy): string[] =>
  withDefault(p.defaultModel, p.allowedModels);

/** Every effort level a message may name: the default first. Pure. */
export const effortsAllowed = (p: ModelPolicy): string[] =>
  withDefault(p.defaultEffort, p.allowedEfforts);

const DESCRIPTION =
  "A message that creates a task may choose its model and effort: metadata.model and " +
  "metadata.effort, one of params.models and params.efforts; absent, the task runs with " +
  "params.defaultModel and params.defaultEffort (the runtime's own when not given). Anything " +
  "else is refused with InvalidParams before a task exists.";

/** The card's entry, when a message has a choice (`claude.allowedModels` or `allowedEfforts`). */
export function taskOptionsExtension(p: ModelPolicy): AgentExtension | undefined {
  if (p.allowedModels.length === 0 && p.allowedEfforts.length === 0) return undefined;
  return {
    uri: TASK_OPTIONS_EXTENSION_URI,
    description: DESCRIPTION,
    required: false,
    params: {
      modelKey: MODEL_KEY,
      effortKey: EFFORT_KEY,
      models: modelsAllowed(p),
      efforts: effortsAllowed(p),
      ...(p.defaultModel !== undefined && { defaultModel: p.defaultModel }),
      ...(p.defaultEffort !== undefined && { defaultEffort: p.defaultEffort }),
    },
  };
}

/** `card` declaring what its messages may choose (unchanged when there is no choice). Pure. */
export function withTaskOptions(card: AgentCard, p: ModelPolicy): AgentCard {
  const extension = taskOptionsExtension(p);
  const capabilities = card.capabilities;
  if (extension === undefined || capabilities === undefined) return card;
  return {
    ...card,
    capabilities: { ...capabilities, extensions: [...capabilities.extensions, extension] },
  };
}
