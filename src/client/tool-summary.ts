/**
 * A tool call in everyday words, from its name and input (`toolInput`, docs/protocol.md "Tool
 * calls"): "Running `npm test`", "Reading `src/app.ts`". The terminal client prints it on one
 * line; the web console shows the subject as code. Pure, Node-free: the console bundles it.
 */

export interface ToolWords {
  /** "Running", "Reading", …: what Claude is doing. */
  readonly verb: string;
  /** The command, path, pattern or URL it acts on; undefined when the input names none. */
  readonly subject: string | undefined;
  /** Where a search looks (Grep's `path`), when the input says. */
  readonly where?: string;
}

type Rec = Record<string, unknown>;
const field = (input: unknown, ...keys: string[]): string | undefined => {
  if (typeof input !== "object" || input === null) return undefined;
  for (const k of keys) {
    const v = (input as Rec)[k];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return undefined;
};

/** The words of a call of `toolName` with `input` (undefined: the server did not send it). */
export function toolWords(toolName: string, input: unknown): ToolWords {
  const words = (verb: string, subject: string | undefined, where?: string): ToolWords =>
    where === undefined ? { verb, subject } : { verb, subject, where };
  switch (toolName) {
    case "Bash":
      return words("Running", field(input, "command"));
    case "BashOutput":
      return words("Reading the output of", field(input, "bash_id", "shell_id"));
    case "KillShell":
    case "KillBash":
      return words("Stopping", field(input, "shell_id", "bash_id"));
    case "Read":
      return words("Reading", field(input, "file_path", "path"));
    case "Write":
      return words("Writing", field(input, "file_path", "path"));
    case "Edit":
    case "MultiEdit":
      return words("Editing", field(input, "file_path", "path"));
    case "NotebookEdit":
      return words("Editing", field(input, "notebook_path"));
    case "Grep":
      return words("Searching for", field(input, "pattern"), field(input, "path", "glob"));
    case "Glob":
      return words("Finding files", field(input, "pattern"), field(input, "path"));
    case "WebFetch":
      return words("Fetching", field(input, "url"));
    case "WebSearch":
      return words("Searching the web for", field(input, "query"));
    case "Task":
    case "Agent":
      return words("Delegating", field(input, "description", "prompt"));
    case "TodoWrite":
      return words("Updating the to-do list", undefined);
    case "AskUserQuestion":
      return words("Asking you a question", undefined);
    default:
      return words(`Using ${toolName}`, undefined);
  }
}

/** One line: "Running npm test" (a subject over `max` characters shortened with "…"). */
export function toolLine(toolName: string, input: unknown, max = 80): string {
  const w = toolWords(toolName, input);
  if (w.subject === undefined) return w.verb;
  const subject = oneLine(w.subject, max);
  return w.where === undefined ? `${w.verb} ${subject}` : `${w.verb} ${subject} in ${w.where}`;
}

/** The first line of `text`, whitespace collapsed, shortened to `max` characters with "…". */
export function oneLine(text: string, max: number): string {
  const first = text.trim().split("\n")[0]?.replace(/\s+/g, " ") ?? "";
  const more = text.trim().includes("\n");
  if (first.length > max) return `${first.slice(0, Math.max(1, max - 1))}…`;
  return more ? `${first} …` : first;
}

/** A tool's output in a few words: "3 lines", "failed: not found", "no output". */
export function outputLine(output: string, isError: boolean, max = 80): string {
  const text = output.trim();
  if (isError) return text === "" ? "failed" : `failed: ${oneLine(text, max)}`;
  if (text === "") return "no output";
  const lines = text.split("\n").length;
  return lines === 1 ? oneLine(text, max) : `${lines} lines`;
}
