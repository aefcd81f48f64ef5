/**
 * Finding a task in the list: what a task asked (its first message), a conversation's title (its
 * first prompt), and the search and filters over them (a word of the title or of any text the
 * list holds, the state, the origin, the owner for operators). Pure: no DOM.
 */
import { Role, type Task } from "@a2a-js/sdk";
import { messageText } from "./answers.js";
import { originOf, stateName } from "./format.js";

export interface ListFilter {
  /** Words to find (all of them, any case), in the titles and texts. */
  readonly query: string;
  /** A state name (`working`, `input-required`, …), or "" for any; `open`: not over. */
  readonly state: string;
  /** `foreground`, `autonomous`, or "" for any. */
  readonly origin: string;
  /** A caller's name (`metadata.owner`, operators see it), or "" for any. */
  readonly owner: string;
  /** Only this conversation (a shared `#conversation=` link), or "" for all. */
  readonly contextId: string;
}

export const NO_FILTER: ListFilter = { query: "", state: "", origin: "", owner: "", contextId: "" };

/** What was asked: the task's first user message (ListTasks' history window has it). */
export function askOfTask(task: Task): string {
  const first = task.history.find((m) => m.role === Role.ROLE_USER);
  return messageText(first);
}

/** What the task ended with or says now: its status text, else its last message. */
export function saidOfTask(task: Task): string {
  return messageText(task.status?.message) || messageText(task.history.at(-1));
}

/** The owner the server reports (operators' listings), if any. */
export function ownerOf(task: Task): string | undefined {
  const o: unknown = task.metadata?.owner;
  return typeof o === "string" ? o : undefined;
}

const OVER = new Set(["completed", "failed", "canceled", "rejected"]);

/** Whether `task` (of a conversation titled `title`) passes `f`. */
export function passes(task: Task, title: string, f: ListFilter): boolean {
  const state = stateName(task.status?.state);
  if (f.state === "open" ? OVER.has(state) : f.state !== "" && state !== f.state) return false;
  if (f.origin !== "" && originOf(task) !== f.origin) return false;
  if (f.owner !== "" && ownerOf(task) !== f.owner) return false;
  if (f.contextId !== "" && task.contextId !== f.contextId) return false;
  const words = f.query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [title, ...task.history.map((m) => messageText(m)), saidOfTask(task)]
    .join("\n")
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/**
 * Conversations in the order the server listed their tasks (newest first), each titled by the
 * ask of its oldest task the page knows (`known`: asks learnt before, by context), with the tasks
 * that pass the filter; conversations with none are left out.
 */
export function conversations(
  tasks: readonly Task[],
  f: ListFilter,
  known: ReadonlyMap<string, string> = new Map(),
): { contextId: string; title: string; tasks: Task[] }[] {
  const groups = new Map<string, Task[]>();
  for (const t of tasks) {
    const group = groups.get(t.contextId);
    if (group === undefined) groups.set(t.contextId, [t]);
    else group.push(t);
  }
  const out: { contextId: string; title: string; tasks: Task[] }[] = [];
  for (const [contextId, group] of groups) {
    const oldest = [...group].reverse().find((t) => askOfTask(t) !== "");
    const title = known.get(contextId) ?? (oldest === undefined ? "" : askOfTask(oldest));
    const shown = group.filter((t) => passes(t, title, f));
    if (shown.length > 0) out.push({ contextId, title, tasks: shown });
  }
  return out;
}
