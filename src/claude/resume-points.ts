/**
 * Where in a session's transcript a rewind or a fork resumes (`resumeSessionAt`). The runtime
 * stores each user message we stream under the `uuid` we gave it, and chains every entry to the
 * one before it (`parentUuid`); a resume "at" an entry keeps the chain up to and including it.
 */
import { isPrompt } from "./rewind.js";

interface Entry {
  readonly type?: string;
  readonly uuid?: string;
  /** A `last-prompt` record's: the entry the runtime resumes a plain resume at. */
  readonly leafUuid?: string;
  readonly parentUuid?: string | null;
  readonly isMeta?: boolean;
  readonly message?: { readonly content?: unknown };
}

function lines(transcript: string): Entry[] {
  const out: Entry[] = [];
  for (const line of transcript.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line) as Entry);
    } catch {
      // A torn line is skipped.
    }
  }
  return out;
}

/** The conversation as the runtime resumes it: from the first entry to the last one written. */
function chain(transcript: string): Entry[] {
  const all = lines(transcript).filter((e) => typeof e.uuid === "string");
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

/** Whether the runtime's record of where a plain resume goes names a rewound branch. */
export type BranchEnd =
  /** It does: a plain resume continues the branch. */
  | { readonly kind: "recorded" }
  /** It does not (it names the branch rewound away): `leaf` is the branch's end. */
  | { readonly kind: "unrecorded"; readonly leaf: string }
  /** The branch's prompt is not in the transcript: nothing of the branch to resume. */
  | { readonly kind: "unwritten" };

/**
 * Whether a plain resume of a session rewound and then run with `prompt` continues that branch.
 * The runtime loads the branch its newest `last-prompt` line names, and writes one lazily (at
 * its next prompt, or as its process closes): until one names an entry from `prompt` on, the
 * newest may name the branch rewound away (everything SIGKILLed right after the rewinding
 * turn), and `resumeSessionAt` cannot help (it looks only in the branch loaded). The branch is
 * the one written last (`chain`). Pure.
 */
export function branchEnd(transcript: string, prompt: string): BranchEnd {
  const c = chain(transcript);
  const from = c.findIndex((e) => e.uuid === prompt);
  if (from < 0) return { kind: "unwritten" };
  const leaf = lines(transcript).findLast((e) => e.type === "last-prompt")?.leafUuid;
  const recorded = leaf === undefined ? -1 : c.findIndex((e) => e.uuid === leaf);
  if (recorded >= from) return { kind: "recorded" };
  return { kind: "unrecorded", leaf: c.at(-1)?.uuid as string };
}

/** The line the runtime writes to say where a plain resume goes (`leafUuid`), as it writes it. */
export const lastPromptLine = (sessionId: string, leaf: string): string =>
  JSON.stringify({ type: "last-prompt", leafUuid: leaf, sessionId });
