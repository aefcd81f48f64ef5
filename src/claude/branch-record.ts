/**
 * The runtime's record of a rewound branch, made sure of before a session of it is resumed
 * (docs/control.md "After a restart"). The runtime resumes the branch its newest `last-prompt`
 * line names and writes that line lazily, at its next prompt or as its process closes: when the
 * process of a rewound branch was killed before either (the server and its processes SIGKILLed
 * right after a rewind), the newest line still names the branch rewound away. Then the line the
 * runtime would have written as it closed is written for it, naming the rewound branch's end.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { branchEnd, lastPromptLine, type BranchEnd } from "./resume-points.js";
import { transcriptFileSync } from "./rewind.js";
import type { TranscriptLocation } from "./transcripts.js";

/**
 * Makes a plain resume of `sessionId` continue the branch a rewind began with `prompt`; returns
 * what it found (`unrecorded`: the line was written). Synchronous: run right before the session
 * is created, when no process of the conversation is live to write the transcript meanwhile.
 */
export function recordBranchSync(
  where: TranscriptLocation,
  sessionId: string,
  prompt: string,
): BranchEnd {
  const file = transcriptFileSync(where, sessionId);
  const transcript = file === undefined ? "" : readFileSync(file, "utf8");
  const end = branchEnd(transcript, prompt);
  if (file === undefined || end.kind !== "unrecorded") return end;
  // A line torn by the kill is ended first: the record must be a line of its own.
  const torn = transcript !== "" && !transcript.endsWith("\n");
  appendFileSync(file, `${torn ? "\n" : ""}${lastPromptLine(sessionId, end.leaf)}\n`);
  return end;
}
