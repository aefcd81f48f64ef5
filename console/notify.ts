/**
 * Not missing a prompt: while the tab is hidden, a task that goes input-required counts in the
 * tab's title ("(1) claude-a2a console") and raises a browser notification, when the user allowed
 * them (asked on a click of "Notify me", never on load). Coming back to the tab clears the count.
 * A sound is optional and off by default (not made here).
 */
import { TaskState, type Task } from "@a2a-js/sdk";
import { inputRequestOf } from "./answers.js";
import { shortId } from "./format.js";
import { askOfTask } from "./list-filter.js";
import { titleOf } from "./words.js";

const BASE_TITLE = document.title;
const waiting = new Set<string>();
/** Tasks already input-required when last seen: only a new prompt counts. */
let parked = new Set<string>();

export const canNotify = (): boolean => typeof Notification !== "undefined";

function showCount(): void {
  document.title = waiting.size === 0 ? BASE_TITLE : `(${waiting.size}) ${BASE_TITLE}`;
}

/** Asks the browser's permission (call it from a click: browsers refuse it otherwise). */
export async function askPermission(): Promise<NotificationPermission> {
  if (!canNotify()) return "denied";
  return Notification.permission === "default"
    ? await Notification.requestPermission()
    : Notification.permission;
}

/**
 * The tasks input-required now (id → what the prompt says, and the title to show): those new
 * since the last call raise the notice while the tab is hidden.
 */
export function promptsNow(
  now: ReadonlyMap<string, { readonly title: string; readonly text: string }>,
  open: (taskId: string) => void,
): void {
  for (const [id, p] of now) {
    if (parked.has(id) || !document.hidden) continue;
    waiting.add(id);
    if (canNotify() && Notification.permission === "granted") {
      const n = new Notification(`Claude is waiting: ${p.title}`, { body: p.text, tag: id });
      n.onclick = () => {
        window.focus();
        open(id);
        n.close();
      };
    }
  }
  for (const id of waiting) if (!now.has(id)) waiting.delete(id);
  parked = new Set(now.keys());
  showCount();
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) return;
  waiting.clear();
  showCount();
});

/** The listed tasks waiting for an answer now, for the hidden tab's notice. */
export function noticeTasks(tasks: readonly Task[], open: (taskId: string) => void): void {
  const waiting = new Map<string, { title: string; text: string }>();
  for (const t of tasks) {
    if (t.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) continue;
    const req = inputRequestOf(t.status.message);
    waiting.set(t.id, {
      title: titleOf(askOfTask(t), 60) || `task ${shortId(t.id)}`,
      text:
        req.kind === "text"
          ? req.text
          : req.kind === "permission"
            ? `Permission: ${req.toolName}`
            : "A question",
    });
  }
  promptsNow(waiting, open);
}
