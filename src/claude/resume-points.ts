/**
 * Where in a session's transcript a rewind or a fork resumes (`resumeSessionAt`). The runtime
 * stores each user message we stream under the `uuid` we gave it, and chains every entry to the
 * one before it (`parentUuid`); a resume "at" an entry keeps the chain up to and including it.
 */
import { isPrompt } from "./rewind.js";

interface Entry {
  readonly type?: string;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
  readonly isMeta?: boolean;
  readonly message?: { readonly content?: unknown };
}

function entries(transcript: string): Entry[] {
  const out: Entry[] = [];
  for (const line of transcript.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line) as Entry;
      if (typeof e.uuid === "string") out.push(e);
    } catch {
      // A torn line is skipped.
    }
  }
  return out;
}

/** The conversation as the runtime resumes it: from the first entry to the last one written. */
function chain(transcript: string): Entry[] {
  const all = entries(transcript);
  const byUuid = new Map(all.map((e) => [e.uuid as string, e]));
  const out: Entry[] = [];
  const seen = new Set<string>();
  for (let e = all.at(-1); e?.uuid !== undefined && !seen.has(e.uuid);) {
    seen.add(e.uuid);
    out.push(e);
    e = e.parentUuid ? byUuid.get(e.parentUuid) : undefined;
  }
  return out.reverse();
}

/** Where a resume point was looked for and what it is. */
export type ResumePoint =
  /** Resume at this entry (`resumeSessionAt`). */
  | { readonly kind: "at"; readonly uuid: string }
  /** Nothing comes before it: a fresh conversation. */
  | { readonly kind: "start" }
  /** The prompt is not in the conversation's chain (rewound away, or another session's). */
  | { readonly kind: "missing" };

/** Just before the prompt `promptUuid`: the entry it follows. Pure. */
export function pointBefore(transcript: string, promptUuid: string): ResumePoint {
  const c = chain(transcript);
  const i = c.findIndex((e) => e.uuid === promptUuid);
  if (i < 0) return { kind: "missing" };
  const before = c[i - 1];
  return before?.uuid === undefined ? { kind: "start" } : { kind: "at", uuid: before.uuid };
}

/**
 * The end of the task that began at `promptUuid`: the entry before the next prompt that is not
 * its own (`own`: its steering messages); the chain's last entry when nothing came after it.
 * Never "the whole session": after a rewind the transcript holds the branch rewound away too,
 * and a resume without `resumeSessionAt` may continue that one. Pure.
 */
export function pointAfter(
  transcript: string,
  promptUuid: string,
  own: ReadonlySet<string> = new Set(),
): ResumePoint {
  const c = chain(transcript);
  const i = c.findIndex((e) => e.uuid === promptUuid);
  if (i < 0) return { kind: "missing" };
  for (let j = i + 1; j < c.length; j++) {
    const e = c[j] as Entry;
    if (isPrompt(e) && !own.has(e.uuid as string)) {
      return { kind: "at", uuid: c[j - 1]?.uuid as string };
    }
  }
  return { kind: "at", uuid: c.at(-1)?.uuid as string };
}
