/**
 * What goes into Claude and what comes out as files: a message's parts planned into a prompt
 * (text, images, inbox files), the card's input and output modes, and the artifact of each file
 * Claude created or modified.
 *
 * Imported by routing/, task/ and handler/; it imports the contract, media types and the
 * workspace's inbox paths.
 */
export { planPrompt, toUserPrompt, InputError, type PromptPlan } from "./input.js";
export { checkContentModes, contentModesOf, FileDelivery } from "./content-modes.js";
export { fileArtifact, type FileChange } from "./file-artifacts.js";
