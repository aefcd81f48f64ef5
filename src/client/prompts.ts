/** The interactive answers of `chat`: arrow-key selection with @inquirer/prompts. */
import { checkbox, input, select } from "@inquirer/prompts";
import type { Part } from "@a2a-js/sdk";
import { answersPart, permissionPart, type InputRequest, type Question } from "./interaction.js";
import { textPart } from "./message-parts.js";

/** Streams and abort signal for a prompt (inquirer's context). */
export type PromptContext = NonNullable<Parameters<typeof input>[1]>;

/** The user left the prompt (Ctrl-C / Ctrl-D at an inquirer prompt). */
export const isPromptExit = (err: unknown): boolean =>
  err instanceof Error && (err.name === "ExitPromptError" || err.name === "AbortPromptError");

const OTHER = "\u0000other";

async function askQuestion(q: Question, ctx: PromptContext): Promise<string | string[]> {
  const title = `${q.header ? `[${q.header}] ` : ""}${q.question}`;
  const choices = q.options.map((o) => ({
    value: o.label,
    name: o.label,
    description: o.description,
  }));
  if (q.multiSelect) {
    const picked = await checkbox(
      {
        message: title,
        choices: [...choices, { value: OTHER, name: "Other (type an answer)" }],
        required: true,
      },
      ctx,
    );
    if (!picked.includes(OTHER)) return picked;
    const typed = await input({ message: "Your answer:", required: true }, ctx);
    return [...picked.filter((p) => p !== OTHER), typed];
  }
  const picked = await select(
    { message: title, choices: [...choices, { value: OTHER, name: "Other (type an answer)" }] },
    ctx,
  );
  return picked === OTHER ? input({ message: "Your answer:", required: true }, ctx) : picked;
}

/** Asks the user and returns the parts of the answer message. Throws ExitPromptError on Ctrl-C. */
export async function answerInteractively(req: InputRequest, ctx: PromptContext): Promise<Part[]> {
  switch (req.kind) {
    case "question": {
      const answers: Record<string, string | string[]> = {};
      for (const q of req.questions) answers[q.question] = await askQuestion(q, ctx);
      return [answersPart(answers)];
    }
    case "permission": {
      const choice = await select(
        {
          message: `Allow ${req.toolName}?`,
          choices: [
            { value: "allow", name: "Allow" },
            { value: "deny", name: "Deny" },
            { value: "deny-reason", name: "Deny, with a reason" },
            { value: "text", name: "Reply in my own words" },
          ],
        },
        ctx,
      );
      if (choice === "allow") return [permissionPart("allow")];
      if (choice === "deny") return [permissionPart("deny")];
      if (choice === "deny-reason")
        return [permissionPart("deny", await input({ message: "Reason:", required: true }, ctx))];
      return [textPart(await input({ message: "Reply:", required: true }, ctx))];
    }
    case "merge": {
      const choice = await select(
        {
          message: `Merge into ${req.merge.into}?`,
          choices: [
            { value: "allow", name: "Merge" },
            { value: "deny", name: "Do not merge" },
            { value: "deny-reason", name: "Do not merge, with a reason" },
          ],
        },
        ctx,
      );
      if (choice === "allow") return [permissionPart("allow")];
      if (choice === "deny") return [permissionPart("deny")];
      return [permissionPart("deny", await input({ message: "Reason:", required: true }, ctx))];
    }
    case "text":
      return [textPart(await input({ message: "Reply:", required: true }, ctx))];
  }
}
