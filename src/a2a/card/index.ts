/**
 * The cards the server serves, built once at startup: the public card, the authenticated
 * extended card (the public one plus the workspace's settings, slash commands and subagents),
 * and their JWS signatures when `agentCard.signing` is set.
 *
 * Imported by the app's wiring (src/agent.ts builds them; the handler answers
 * GetExtendedAgentCard through `extendedCardProvider`) and by `--check` (the signing key). It
 * imports the contract and reads the workspace's `.claude/commands` and `.claude/agents`.
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
