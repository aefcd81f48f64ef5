/**
 * The scripted model's rules for `claude-a2a demo`: one per recorded session of docs/demo.md
 * (a question, a permission, a worktree diff), held to those recordings by
 * test/e2e/demo-sessions.test.ts. A message no rule knows gets the list of what the demo knows.
 */
import { reply, text, toolUse } from "./fake-model/rules.js";
import type { ParsedRequest, Rule } from "./fake-model/types.js";

/** What the demo's user types, as the recordings show it. */
export const DEMO_PROMPTS = {
  question: "Paint the fence",
  permission: "Save the report in /tmp/outside",
  diff: "Write the notes",
} as const;

const COLOUR_QUESTION = {
  question: "Which colour do you prefer?",
  header: "Colour",
  options: [
    { label: "red", description: "Choose red" },
    { label: "blue", description: "Choose blue" },
  ],
  multiSelect: false,
};

/** The directory named after "Save the report in …" (an absolute path), else /tmp/outside. */
export function reportPath(userText: string): string {
  const dir = /Save the report in (\/\S*[^\s./])/.exec(userText)?.[1] ?? "/tmp/outside";
  return `${dir}/report.txt`;
}

/** The colour the answer to the question chose (the tool result names it). */
const chosenColour = (req: ParsedRequest): string =>
  /\b(red|blue)\b/.exec(req.toolResults.map((r) => r.content).join("\n"))?.[1] ?? "blue";

/**
 * A text without the `<system-reminder>` blocks the runtime adds to what it sends the model (a
 * user's message, a tool's result: `<total_tokens>` left, task notifications): what the user
 * typed, or what the tool returned.
 */
export const withoutReminders = (s: string): string =>
  s.replace(/<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, "").trim();

export const DEMO_HELP =
  `[demo] This is the scripted model of claude-a2a demo: it knows only the recorded sessions. ` +
  `Try "${DEMO_PROMPTS.question}" (a question), "${DEMO_PROMPTS.permission}" (a permission) ` +
  `or "${DEMO_PROMPTS.diff}" (a file change, with the diff of the conversation's worktree).`;

export const DEMO_RULES: readonly Rule[] = [
  {
    name: "question",
    match: { lastUserText: DEMO_PROMPTS.question, toolResult: false },
    reply: reply(toolUse("AskUserQuestion", { questions: [COLOUR_QUESTION] })),
  },
  {
    name: "painted",
    match: { toolResult: /Which colour do you prefer\?/ },
    reply: (req) => reply(text(`Painting it ${chosenColour(req)}.`)),
  },
  {
    name: "save-outside",
    match: { lastUserText: "Save the report in", toolResult: false },
    reply: (req) =>
      reply(toolUse("Write", { file_path: reportPath(req.lastUserText), content: "report\n" })),
  },
  {
    name: "saved",
    match: { toolResult: /report\.txt/ },
    reply: (req) =>
      reply(
        text(req.toolResults.some((r) => r.isError) ? "I did not save it." : "Saved the report."),
      ),
  },
  {
    name: "notes",
    match: { lastUserText: DEMO_PROMPTS.diff, toolResult: false },
    reply: reply([
      text("Writing them."),
      toolUse("Write", { file_path: "notes.md", content: "# Notes\n\nThe fence is blue.\n" }),
    ]),
  },
  {
    name: "notes-written",
    match: { toolResult: /notes\.md/ },
    reply: reply(text("The notes are written.")),
  },
  {
    // A tool call of a rule above that was refused (a permission denied): say so.
    name: "refused",
    match: { toolResult: true },
    reply: (req) =>
      reply(text(req.toolResults.some((r) => r.isError) ? "I could not do that." : "Done.")),
  },
  {
    name: "help",
    match: { when: (req) => !req.isSubagent && withoutReminders(req.lastUserText) !== "" },
    reply: reply(text(DEMO_HELP)),
  },
];
