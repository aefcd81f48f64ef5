import { pointAfter, pointBefore, type ResumePoint } from "../../claude/index.js";
import { CONTROL_TEXT } from "../../contract/control-texts.js";
import { refuse, type Checked } from "../../common/refusal.js";

export type PointCheck = Checked<{ readonly point: Exclude<ResumePoint, { kind: "missing" }> }>;

/**
 * Where a rewind (just before the task's prompt) or a fork (the end of the task) resumes the
 * task's session, read from the runtime's transcript of it; refused when the session has no
 * transcript here any more, or when the prompt is not on the branch the conversation is on (an
 * earlier rewind went back before it). The request guard asks it before the task exists, the
 * task's start again with the transcript as it then is. Pure.
 */
export function resumePointOf(
  kind: "rewind" | "fork",
  taskId: string,
  promptUuid: string,
  transcript: string,
): PointCheck {
  if (transcript.trim() === "") return refuse(CONTROL_TEXT.noTranscript(taskId));
  const point =
    kind === "rewind" ? pointBefore(transcript, promptUuid) : pointAfter(transcript, promptUuid);
  if (point.kind === "missing") {
    return refuse(CONTROL_TEXT.notInConversation(taskId));
  }
  return { ok: true, point };
}
