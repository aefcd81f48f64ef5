import { TaskState, type Part, type Task } from "@a2a-js/sdk";
import type { ForgeConfig } from "../config/forge-schema.js";
import { stateWord } from "../contract/task-states.js";
import type { CommentTarget } from "../forge/forge.js";

/**
 * What a trigger's result comment says and where it goes (docs/triggers.md "Result comments"):
 * the issue, pull request or merge request of the event, on the forge the trigger names, with
 * the task's final answer and its link in the console. Pure.
 */

/** Where the comment goes, or why nowhere. */
export type CommentPlace =
  | { readonly ok: true; readonly target: CommentTarget }
  | { readonly ok: false; readonly reason: string };

/**
 * The event's subject (`github:<owner>/<repo>#<n>`, `gitlab:<project>#<iid>` or `!<iid>`, as
 * event.ts makes it) as a target on the configured forge. A subject on another forge or another
 * repository is refused: an organisation's webhook sends every repository's events, and the
 * server's token is for the one configured.
 */
export function commentPlace(subject: string | undefined, forge: ForgeConfig): CommentPlace {
  if (subject === undefined) return { ok: false, reason: "the event is about no issue or request" };
  const m = /^(github|gitlab):(.+)([#!])(\d+)$/.exec(subject);
  if (!m) return { ok: false, reason: `the subject ${subject} is not a forge's issue or request` };
  const [, kind, repository = "", sign, number] = m;
  if (kind !== forge.kind) {
    return { ok: false, reason: `the event comes from ${kind}, the result forge is ${forge.kind}` };
  }
  // GitLab's numeric project id cannot be compared with the event's path: taken as configured.
  const sameRepository =
    (forge.kind === "gitlab" && /^\d+$/.test(forge.repository)) ||
    repository.toLowerCase() === forge.repository.toLowerCase();
  if (!sameRepository) {
    return {
      ok: false,
      reason: `the event is about ${repository}, the result forge's repository is ${forge.repository}`,
    };
  }
  return {
    ok: true,
    target: { kind: sign === "!" ? "pull-request" : "issue", number: Number(number) },
  };
}

const textOf = (parts: readonly Part[]): string =>
  parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n")
    .trim();

/**
 * The task's final answer: the text of its last run (`response-<run>` artifacts, the last one
 * with text), else its final status's text.
 */
export function finalAnswer(task: Task): string {
  const answers = task.artifacts
    .filter((a) => a.artifactId.startsWith("response-"))
    .map((a) => textOf(a.parts))
    .filter((t) => t !== "");
  return answers.at(-1) ?? textOf(task.status?.message?.parts ?? []);
}

/** How the comment's first line says the task ended. */
function outcomeLine(state: TaskState | undefined): string {
  switch (state) {
    case TaskState.TASK_STATE_COMPLETED:
      return "completed";
    case TaskState.TASK_STATE_FAILED:
      return "failed";
    case TaskState.TASK_STATE_CANCELED:
      return "was canceled";
    case TaskState.TASK_STATE_REJECTED:
      return "was rejected";
    default:
      return `ended (${stateWord(state)})`;
  }
}

/** The comment's Markdown: how the task ended, its answer (capped), its console link. */
export function commentBody(o: {
  trigger: string;
  task: Task;
  consoleUrl: string;
  maxAnswerChars: number;
}): string {
  const answer = finalAnswer(o.task);
  const cut = answer.length > o.maxAnswerChars;
  const shown = cut ? `${answer.slice(0, o.maxAnswerChars).trimEnd()}…` : answer;
  const link = `${o.consoleUrl}#task=${encodeURIComponent(o.task.id)}`;
  return [
    `The task started by the trigger \`${o.trigger}\` ${outcomeLine(o.task.status?.state)}.`,
    ...(shown === "" ? [] : ["", shown]),
    ...(cut
      ? ["", `_(The answer is cut at ${o.maxAnswerChars} characters; the task has it whole.)_`]
      : []),
    "",
    `[Open the task in the console](${link})`,
  ].join("\n");
}
