import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { childConfigDir } from "./history.js";
import type { TranscriptLocation } from "./transcripts.js";

interface Entry {
  readonly type?: string;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
  readonly isApiErrorMessage?: boolean;
  readonly isMeta?: boolean;
  readonly message?: { readonly content?: unknown };
}

/**
 * The note the runtime writes as a user entry when a turn is interrupted (an interrupt, or its
 * input closed because the server died): its own, not a prompt anyone sent.
 */
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

const isInterruptNote = (content: unknown): boolean =>
  typeof content === "string"
    ? INTERRUPTED.test(content)
    : Array.isArray(content) &&
      content.length > 0 &&
      content.every((b) => {
        const block = b as { type?: unknown; text?: unknown } | null;
        return (
          block?.type === "text" && typeof block.text === "string" && INTERRUPTED.test(block.text)
        );
      });

/** A user message a client sent (not a tool result, not one of the runtime's own notes). */
export const isPrompt = (e: Pick<Entry, "type" | "isMeta" | "message">): boolean => {
  if (e.type !== "user" || e.isMeta === true) return false;
  const content = e.message?.content;
  if (isInterruptNote(content)) return false;
  if (typeof content === "string") return true;
  return (
    Array.isArray(content) &&
    !content.some((b) => (b as { type?: unknown } | null)?.type === "tool_result")
  );
};

/**
 * Where to resume a conversation whose last prompt the API rejected: the last assistant message
 * before that prompt, found by walking the transcript's chain back from the runtime's API error
 * message. Undefined when there is no such error, or nothing before the prompt (start fresh).
 * Pure.
 */
export function rewindPoint(transcript: string): string | undefined {
  const entries: Entry[] = [];
  for (const line of transcript.split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line) as Entry);
    } catch {
      // A torn line is skipped.
    }
  }
  const byUuid = new Map(entries.filter((e) => e.uuid).map((e) => [e.uuid as string, e]));
  const error = entries.findLast((e) => e.type === "assistant" && e.isApiErrorMessage === true);
  if (!error) return undefined;
  let seenPrompt = false;
  const seen = new Set<string>();
  for (let e: Entry | undefined = error; e?.uuid && !seen.has(e.uuid);) {
    seen.add(e.uuid);
    if (!seenPrompt) {
      seenPrompt = isPrompt(e);
    } else if (e.type === "assistant" && e.isApiErrorMessage !== true) {
      return e.uuid;
    }
    e = e.parentUuid ? byUuid.get(e.parentUuid) : undefined;
  }
  return undefined;
}

/**
 * Where a session's transcript is (synchronously: a rare path, right before a session starts).
 * Under worktrees a fork's copy may hold the same id in another project folder: the file written
 * last is the one a process of the session wrote.
 */
export function transcriptFileSync(
  where: TranscriptLocation,
  sessionId: string,
): string | undefined {
  const configDir = childConfigDir(where.env ?? process.env);
  if (configDir === undefined || /[\\/]/.test(sessionId)) return undefined;
  const projects = join(configDir, "projects");
  let dirs: string[];
  try {
    dirs = readdirSync(projects);
  } catch {
    return undefined;
  }
  let found: { file: string; at: number } | undefined;
  for (const dir of dirs) {
    const file = join(projects, dir, `${sessionId}.jsonl`);
    try {
      const at = statSync(file).mtimeMs;
      if (found === undefined || at > found.at) found = { file, at };
    } catch {
      // Not in this project.
    }
  }
  return found?.file;
}

/** Reads a session's transcript (synchronously: a rare path, right before a session starts). */
export function readTranscriptSync(where: TranscriptLocation, sessionId: string): string {
  const file = transcriptFileSync(where, sessionId);
  if (file === undefined) return "";
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
