/**
 * `metadata.kind` of every status message and artifact this server publishes (docs/protocol.md "Event
 * stream contract"). The first five are the seed contract; the rest are additions, each with its
 * own kind. A test holds this list and docs/protocol.md's tables to each other.
 */
export const KIND = {
  toolUse: "tool_use",
  toolResult: "tool_result",
  result: "result",
  askUserQuestion: "ask_user_question",
  permissionRequest: "permission_request",
  resumed: "resumed",
  queued: "queued",
  assistantText: "assistant_text",
  file: "file",
  serverRestarted: "server_restarted",
  sessionReset: "session_reset",
  backgroundWait: "background_wait",
  backgroundTask: "background_task",
  backgroundStopped: "background_stopped",
  backgroundTimeout: "background_timeout",
  wakeInterrupted: "wake_interrupted",
  budgetReached: "budget_reached",
  steered: "steered",
  planApproval: "plan_approval",
  rewound: "rewound",
  forked: "forked",
  diff: "diff",
  delegated: "delegated",
  delegatedInput: "delegated_input",
  delivery: "delivery",
  proofOfWork: "proof_of_work",
  mergeApproval: "merge_approval",
  review: "review",
} as const;
export type EventKind = (typeof KIND)[keyof typeof KIND];

/** The kinds a status message carries (the rest are artifacts'). */
export type StatusKind = Exclude<
  EventKind,
  | typeof KIND.assistantText
  | typeof KIND.file
  | typeof KIND.diff
  | typeof KIND.proofOfWork
  | typeof KIND.review
>;

/** `metadata.origin` of a task the server created for a wake no task owned. */
export const AUTONOMOUS_ORIGIN = "autonomous";

/**
 * `metadata.origin` of a task a trigger started (docs/triggers.md), beside `metadata.trigger`
 * (its name) and `metadata.eventId` (the delivery id).
 */
export const TRIGGER_ORIGIN = "trigger";
