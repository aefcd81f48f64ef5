import type { TaskPushNotificationConfig } from "@a2a-js/sdk";

/**
 * A push config as a client may read it back: without its `token` and without
 * `authentication.credentials` (the scheme stays). Credentials given to the server are
 * write-only (A2A v1.1, a2aproject/A2A#1988): they reach the webhook with every delivery, and
 * never a reader of the config, who may be another client of the same caller, a log, or a
 * console. Empty strings are what ProtoJSON leaves out, on every binding.
 */
export function withoutCredentials(config: TaskPushNotificationConfig): TaskPushNotificationConfig {
  const auth = config.authentication;
  return {
    ...config,
    token: "",
    authentication: auth === undefined ? undefined : { ...auth, credentials: "" },
  };
}
