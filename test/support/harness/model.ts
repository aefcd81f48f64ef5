/**
 * The scripted model, through one seam: every test and support module reaches the fake Anthropic
 * API through this file, so when the fake model server moves only the line below changes.
 */
export * from "../fake-model/index.js";
