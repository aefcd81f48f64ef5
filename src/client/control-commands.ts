import { CONTROL_EXTENSION_URI, CONTROL_KEYS } from "../contract/control.js";

/**
 * The terminal client's `/rewind` and `/fork` (docs/control.md): what a line asks, read against
 * the tasks this chat has run (`#1` is its first, `#-1` or nothing its last). Pure.
 */
export type ControlCommand =
  | {
      readonly kind: "send";
      /** The message's metadata (`rewindTo`/`dryRun`, or `forkOf`). */
      readonly metadata: Record<string, unknown>;
      readonly text: string;
      /** A fork starts a new context. */
      readonly newContext: boolean;
    }
  | { readonly kind: "usage"; readonly text: string };

export const CONTROL_USAGE =
  "/rewind [--dry-run] [<taskId>|#n] <message>  go back to just before that task (default: the last)\n" +
  "/fork [<taskId>|#n] <message>                 a new conversation from the end of that task";

/** The request header that activates the control extension for one request. */
export const CONTROL_HEADERS: Readonly<Record<string, string>> = {
  "A2A-Extensions": CONTROL_EXTENSION_URI,
};

function target(word: string | undefined, tasks: readonly string[]): string | undefined {
  if (word === undefined) return tasks.at(-1);
  const n = /^#(-?\d+)$/.exec(word)?.[1];
  if (n === undefined) return word;
  const i = Number(n);
  return i > 0 ? tasks[i - 1] : tasks.at(i === 0 ? -1 : i);
}

/** The command a line is, or undefined when it is neither `/rewind` nor `/fork`. */
export function parseControlCommand(
  line: string,
  tasks: readonly string[],
): ControlCommand | undefined {
  const words = line.trim().split(/\s+/);
  const name = words.shift();
  if (name !== "/rewind" && name !== "/fork") return undefined;
  const dryRun = name === "/rewind" && words[0] === "--dry-run";
  if (dryRun) words.shift();
  // A first word that names a task (an id or #n) is the target; the rest is the message.
  const first = words[0];
  const named = first !== undefined && (/^#-?\d+$/.test(first) || tasks.includes(first));
  const taskId = target(named ? words.shift() : undefined, tasks);
  const text = words.join(" ");
  if (taskId === undefined)
    return { kind: "usage", text: `No task to go to yet.\n${CONTROL_USAGE}` };
  if (text === "" && !dryRun) return { kind: "usage", text: CONTROL_USAGE };
  if (name === "/fork") {
    return { kind: "send", metadata: { [CONTROL_KEYS.forkOf]: taskId }, text, newContext: true };
  }
  const metadata = {
    [CONTROL_KEYS.rewindTo]: taskId,
    ...(dryRun && { [CONTROL_KEYS.dryRun]: true }),
  };
  return { kind: "send", metadata, text: text === "" ? "(dry run)" : text, newContext: false };
}
