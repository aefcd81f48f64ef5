import { ownerKey } from "./caller.js";
import { parseConversationKey } from "./conversation.js";

/** The caller label of every caller the configuration does not name. */
export const OTHER_CALLER = "other";

/**
 * The `caller` label of a metric: the scope (`token:<name>`, `login:<login>`) of a caller the
 * configuration names (`server.auth.tokens`, `server.allowedLogins`, `triggers`), else `other`, so a label
 * never takes a value a client chose and the series stay bounded.
 */
export function metricsCallerLabel(known: {
  readonly tokens: readonly string[];
  readonly logins: readonly string[];
  /** The workspace's triggers (`trigger:<name>`), named in its config too. */
  readonly triggers?: readonly string[];
}): (conversation: string) => string {
  const named = new Set([
    ...known.tokens.map((name) => ownerKey({ kind: "token", name })),
    ...known.logins.map((login) => ownerKey({ kind: "login", login })),
    ...(known.triggers ?? []).map((name) => ownerKey({ kind: "trigger", name })),
  ]);
  return (conversation) => {
    const owner = parseConversationKey(conversation)?.owner;
    return owner !== undefined && named.has(owner) ? owner : OTHER_CALLER;
  };
}
