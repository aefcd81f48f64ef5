import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";

/** Every permission mode of the runtime, once: the config's schema and the session read this list. */
export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto",
] as const;

// Fails to compile when the Agent SDK adds or drops a mode, so the list cannot silently drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _matchesSdk: Same<(typeof PERMISSION_MODES)[number], PermissionMode> = true;

/** Whether `mode` names one of the runtime's permission modes. Pure. */
export const isPermissionMode = (mode: unknown): mode is PermissionMode =>
  typeof mode === "string" && (PERMISSION_MODES as readonly string[]).includes(mode);
