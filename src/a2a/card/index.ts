/**
 * The cards the server serves, built once at startup: the agent card from the config
 * (agent-card.ts: interfaces, security schemes, the paths the bindings mount), the authenticated
 * extended card (the public one plus the workspace's settings, slash commands and subagents),
 * their JWS signatures when `agentCard.signing` is set, and the v0.3 form (legacy-card.ts).
 *
 * Imported by the app's wiring (src/app/agent.ts builds them; the handler answers
 * GetExtendedAgentCard through `extendedCardProvider`) and by `--check` (the signing key). The bindings read the
 * paths and documents of agent-card.ts. It imports the contract and reads the workspace's `.claude/commands` and `.claude/agents`.
 */
export { buildCards, extendedCardProvider, workspaceFacts, type Cards } from "./cards.js";
export { frontmatter } from "./frontmatter.js";
export { readProjectEntries } from "./project-skills.js";
export {
  CardSigningError,
  loadSigningKey,
  signCard,
  type SigningHeader,
  type SigningKey,
} from "./signing.js";
