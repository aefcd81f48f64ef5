/** What the wire says when a caller limit refuses a task, as the limit tests expect it. */

/** The `google.rpc.ErrorInfo` of a `tasksPerMinute` refusal; its metadata values are strings. */
export const taskRateErrorInfo = (metadata: {
  caller: string;
  max: string;
  retryAfterSeconds: string;
  resetsAt: string;
}) => ({
  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
  reason: "TASK_RATE_LIMIT_EXCEEDED",
  domain: "claude-a2a",
  metadata: { limit: "tasksPerMinute", ...metadata },
});
