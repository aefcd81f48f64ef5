import type { AgentCard } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ExtendedAgentCardProvider } from "@a2a-js/sdk/server";
import type { Config } from "../../config/schema.js";
import { buildAgentCard } from "./agent-card.js";
import { assertDeclared } from "../../contract/extensions.js";
import { modelPolicyOf, withTaskOptions } from "../../contract/task-options.js";
import {
  buildExtendedCard,
  EXTENDED_CARD_NEEDS_CALLER,
  type WorkspaceFacts,
} from "../../contract/extended-card.js";
import { readProjectEntries } from "./project-skills.js";
import { CardSigningError, loadSigningKey, signCard, type SigningKey } from "./signing.js";

export interface Cards {
  /** The public card, signed when `agentCard.signing` is set. */
  readonly card: AgentCard;
  /** The authenticated extended card; undefined when no authentication is configured. */
  readonly extended: AgentCard | undefined;
}

/** What the extended card tells of the workspace, read now (commands and agents at startup). */
export async function workspaceFacts(config: Pick<Config, "claude">): Promise<WorkspaceFacts> {
  const cwd = config.claude.cwd;
  return {
    model: config.claude.model,
    permissionMode: config.claude.permissionMode,
    commands: await readProjectEntries(cwd, "commands"),
    agents: await readProjectEntries(cwd, "agents"),
  };
}

async function sign(card: AgentCard, key: SigningKey | undefined): Promise<AgentCard> {
  if (key === undefined) return card;
  try {
    return await signCard(card, key);
  } catch (err) {
    throw new CardSigningError(
      `agentCard.signing: cannot sign the card: ${(err as Error).message}`,
    );
  }
}

/**
 * Both cards, built and signed once at startup: the SDK's handler asks for the card on every
 * message, and a signature per request would cost a private-key operation each time. A bad key
 * throws CardSigningError, before anything else starts.
 */
export async function buildCards(
  config: Pick<Config, "server" | "agentCard" | "claude">,
  o: { version: string; env?: NodeJS.ProcessEnv },
): Promise<Cards> {
  const signing = config.agentCard.signing;
  const key =
    signing === undefined ? undefined : await loadSigningKey(signing, config.claude.cwd, o.env);
  // What a message may choose (model, effort) is declared only when it has a choice.
  const card = withTaskOptions(
    buildAgentCard(config, { version: o.version }),
    modelPolicyOf(config.claude),
  );
  assertDeclared(card, "public");
  const extended =
    card.capabilities?.extendedAgentCard === true
      ? assertDeclared(buildExtendedCard(card, await workspaceFacts(config)), "extended")
      : undefined;
  return {
    card: await sign(card, key),
    extended: extended === undefined ? undefined : await sign(extended, key),
  };
}

/** A v0.3 request (`server.compat.v03`): A2A reads a missing version as 0.3. */
const isLegacyRequest = (version: string | undefined) => /^0\./.test(version ?? "0.3");

/**
 * The handler's `extendedAgentCardProvider`: the extended card, to an authenticated caller only.
 * A v0.3 caller gets it unsigned: the SDK translates the card to v0.3's shape, over which the
 * signatures (of the v1.0 card) would not verify.
 */
export function extendedCardProvider(extended: AgentCard): ExtendedAgentCardProvider {
  const unsigned = { ...extended, signatures: [] };
  return (context) => {
    if (context.user?.isAuthenticated !== true) {
      return Promise.reject(new UnsupportedOperationError(EXTENDED_CARD_NEEDS_CALLER));
    }
    return Promise.resolve(isLegacyRequest(context.requestedVersion) ? unsigned : extended);
  };
}
