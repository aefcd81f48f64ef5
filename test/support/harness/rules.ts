/**
 * The scripted model's rules that most tests write, by what they say: a prompt answered in text,
 * a question asked and then answered. One line a rule, so a test's script reads like the
 * conversation it describes (build other rules with `reply`, `text` and `toolUse`).
 */
import { COLOUR_QUESTION } from "../a2a/stream-view.js";
import { reply, text, toolUse, type Matcher, type Rule } from "./model.js";

/** A prompt (the last user text holds it) answered with `answer`; `name` for `requests[].rule`. */
export const says = (prompt: string | RegExp, answer: string, name?: string): Rule => ({
  ...(name !== undefined && { name }),
  match: { lastUserText: prompt },
  reply: reply(text(answer)),
});

export interface Asking {
  /** The reply once the question is answered. */
  readonly then: string;
  /** The tool result that counts as the answer (default: any). */
  readonly answer?: Matcher["toolResult"];
  /** What AskUserQuestion asks (default: the docs' colour question). */
  readonly questions?: readonly unknown[];
  /** The answering rule's name (for `requests[].rule`). */
  readonly name?: string;
}

/** `prompt` makes Claude ask the caller `questions` (the task parks; no answer is scripted). */
export const asking = (prompt: string | RegExp, questions?: readonly unknown[]): Rule => ({
  match: { lastUserText: prompt, toolResult: false },
  reply: reply(toolUse("AskUserQuestion", { questions: questions ?? [COLOUR_QUESTION] })),
});

/**
 * `prompt` makes Claude ask the caller (AskUserQuestion: the task parks in input-required); the
 * answer's tool result gets `then`.
 */
export const asks = (prompt: string | RegExp, a: Asking): Rule[] => [
  asking(prompt, a.questions),
  {
    ...(a.name !== undefined && { name: a.name }),
    match: { toolResult: a.answer ?? true },
    reply: reply(text(a.then)),
  },
];

/** A long answer: at a few characters a chunk, a turn that runs long enough to act during it. */
export const LONG_ANSWER =
  "This answer streams slowly, one small piece after another, for a long while, long enough " +
  "for the test to act in the middle of it.";

/**
 * A prompt answered with `answer` (default `LONG_ANSWER`) 4 characters a chunk, one chunk every
 * `chunkDelayMs`: the run is still streaming when the test cancels, steers, kills or queues.
 */
export const streamsSlowly = (
  prompt: string | RegExp,
  chunkDelayMs = 40,
  answer = LONG_ANSWER,
  name?: string,
): Rule => ({
  ...(name !== undefined && { name }),
  match: { lastUserText: prompt },
  reply: reply(text(answer), { chunkSize: 4, chunkDelayMs }),
});

/** A tool's result (matching `result`) answered with `answer`: the turn's end after the tool. */
export const afterTool = (
  result: NonNullable<Matcher["toolResult"]>,
  answer: string,
  name?: string,
): Rule => ({
  ...(name !== undefined && { name }),
  match: { toolResult: result },
  reply: reply(text(answer)),
});

/** A prompt (no tool result yet) makes Claude write `content` to `path`. */
export const writes = (
  prompt: string | RegExp,
  path: string,
  content: string,
  name?: string,
): Rule => ({
  ...(name !== undefined && { name }),
  match: { lastUserText: prompt, toolResult: false },
  reply: reply(toolUse("Write", { file_path: path, content })),
});
