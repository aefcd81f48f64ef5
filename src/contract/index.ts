/**
 * The wire contract of this server, beyond A2A itself: the `metadata.kind` of every event, every
 * text a client reads, the data parts it may parse, the status each moment publishes, the
 * extensions the card declares. Everything here is documented in docs/ (protocol.md first) and held to it by a test
 * (test/unit/contract/readme.test.ts).
 *
 * Who imports it: any layer (the A2A side, the stores, the session pool and the limits for the
 * texts they write, auth for its refusals), the terminal client (src/client/) and the web console,
 * which parse what the server sends. It is the bottom leaf: it imports nothing of ours (only the
 * A2A SDK's types and values), so that every layer may read it.
 */
export * from "./auth-messages.js";
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
export * from "./control.js";
export * from "./replay.js";
export * from "./store-faults.js";
