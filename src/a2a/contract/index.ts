/**
 * The wire contract of this server, beyond A2A itself: the `metadata.kind` of every event, every
 * text a client reads, the data parts it may parse, the status each moment publishes, and the
 * agent card. Everything here is documented in the README and held to it by a test
 * (test/unit/a2a/contract/readme.test.ts).
 *
 * Who imports it: every other part of src/a2a/, the stores and the session pool (for the texts
 * they write), and the terminal client (src/client/), which parses what the server sends. It
 * imports nothing of ours but src/common/.
 */
export * from "./auth-messages.js";
export * from "./card.js";
export * from "./data-parts.js";
export * from "./extended-card.js";
export * from "./extension.js";
export * from "./history.js";
export * from "./kinds.js";
export * from "./limits.js";
export * from "./messages.js";
export * from "./operator.js";
export * from "./statuses.js";
export * from "./task-options.js";
export * from "./task-states.js";
export * from "./texts.js";
export * from "./usage.js";
export * from "./versions.js";
export * from "./worktree.js";
export * from "./replay.js";
export * from "./store-faults.js";
