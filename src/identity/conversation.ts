import { resolveUserScope, ServerCallContext, type User } from "@a2a-js/sdk/server";
import { ANONYMOUS_OWNER } from "./caller.js";

/**
 * A conversation is a caller's `contextId`: two callers that use the same `contextId` have two
 * conversations, with their own Claude session, session-map entry and turn queue. Its key is
 * what the session pool, the session map and the context queue are keyed by.
 */
export interface Conversation {
  /** The caller's scope, as the SDK's stores see it (`resolveUserScope`). */
  readonly owner: string;
  readonly contextId: string;
}

/** The scope of the caller of a request: the same one the task and push stores use. */
export const ownerOf = (context: ServerCallContext): string => resolveUserScope(context);

declare const conversationKeyBrand: unique symbol;

/**
 * The key of a conversation (caller + context), as the session pool, the session map and the
 * context queue are keyed. Branded so that a bare `contextId`, also a string, cannot be passed
 * where a key is meant: only `conversationKey` (and the session map's upgrade of old keys) make
 * one.
 */
export type ConversationKey = string & { readonly [conversationKeyBrand]: true };

/** Unambiguous whatever the strings hold (a JSON pair, not a separator a contextId could contain). */
export function conversationKey(c: Conversation): ConversationKey {
  return JSON.stringify([c.owner, c.contextId]) as ConversationKey;
}

/** The conversation of a key made by `conversationKey`; undefined for anything else. */
export function parseConversationKey(key: string): Conversation | undefined {
  let value: unknown;
  try {
    value = JSON.parse(key);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [owner, contextId] = value as unknown[];
  if (typeof owner !== "string" || typeof contextId !== "string") return undefined;
  return { owner, contextId };
}

/**
 * A session-map key written before conversations were per caller: a bare `contextId`. Its caller
 * was not recorded, so it becomes the anonymous caller's (the only caller of a default,
 * loopback-only server).
 */
export function upgradeSessionKey(key: string): ConversationKey {
  // Written by `conversationKey` (an earlier run of this server): kept as it is.
  if (parseConversationKey(key) !== undefined) return key as ConversationKey;
  return conversationKey({ owner: ANONYMOUS_OWNER, contextId: key });
}

/** A caller known only by its scope: the call context of work no request of it is attached to. */
export function callContextOf(owner: string): ServerCallContext {
  const user: User = {
    isAuthenticated: owner !== ANONYMOUS_OWNER,
    userName: owner === ANONYMOUS_OWNER ? "" : owner,
  };
  return new ServerCallContext({ user });
}
