/**
 * The web console at /console: an A2A client in the browser. It lists the caller's tasks by
 * conversation (ListTasks, polled), follows the open task live (SubscribeToTask, or the stream of
 * the message the page sent), answers its prompts, cancels it, writes into a conversation, and
 * controls a task where the server offers it (steer, plan approval, rewind, fork). Everything
 * goes through the official client over the server's own A2A binding, so the page sees exactly
 * what its caller may see.
 *
 * This module only wires the page: its state is `state.ts`, what it draws `render.ts`, and the
 * flows `tasks.ts` (read, open, cancel), `follow.ts` (streams), `send.ts` (messages, steering)
 * and `control-flow.ts` (rewind, fork).
 */
import "./buffer-shim.js";
import { textPart } from "./answers.js";
import { forgetToken, storeToken } from "./connection.js";
import { closePanel, confirmPanel, fork, rewind } from "./control-flow.js";
import { wireFinding } from "./finding.js";
import { askPermission, canNotify } from "./notify.js";
import { ui } from "./page.js";
import { renderTask, setHandlers } from "./render.js";
import { answer, send, steer } from "./send.js";
import { renderComposerTarget, state } from "./state.js";
import { listQuery, sameQuery } from "./task-pages.js";
import { cancel, more, open, poll } from "./tasks.js";
import { refreshTriggers } from "./triggers-panel.js";

const POLL_MS = 2000;
/** The Triggers view's refresh (an operator's only: others never see it). */
const TRIGGERS_MS = 5000;

function write(contextId: string | undefined): void {
  state.context = contextId;
  renderComposerTarget();
  ui.composerText.focus();
}

setHandlers({
  open: (id) => void open(id),
  write,
  more: () => void more(),
  cancel: () => void cancel(),
  steer: (text, when) => void steer(text, when),
  answer: (parts, shown) => void answer(parts, shown),
  rewind: () => void rewind(),
  fork,
  confirmPanel,
  closePanel,
});

ui.tokenForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const token = ui.tokenInput.value.trim();
  if (token === "") return;
  storeToken(token);
  ui.tokenInput.value = "";
  state.conn = undefined;
  void poll().then(() => refreshTriggers());
});
ui.forget.addEventListener("click", () => {
  forgetToken();
  state.conn = undefined;
  void poll();
});
// Notifications are asked for on a click only (browsers refuse a request on load anyway).
ui.notify.hidden = !canNotify() || Notification.permission !== "default";
ui.notify.addEventListener("click", () => {
  void askPermission().then(() => (ui.notify.hidden = true));
});
ui.composerNew.addEventListener("click", () => write(undefined));
ui.composer.addEventListener("submit", (e) => {
  e.preventDefault();
  const text = ui.composerText.value.trim();
  if (text === "") return;
  ui.composerText.value = "";
  // "Plan first" asks for plan mode on a task it creates; an answer or steer never carries it.
  const plan = !ui.composerPlan.hidden && ui.composerPlanFirst.checked;
  ui.composerPlanFirst.checked = false;
  void send(
    [textPart(text)],
    text,
    state.context === undefined ? {} : { contextId: state.context },
    plan ? { kind: "plan" } : undefined,
  );
});
// Ctrl/Cmd+Enter sends from the text area.
ui.composerText.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) ui.composer.requestSubmit();
});

wireFinding(
  (filter) => {
    if (filter.contextId !== "" && filter.contextId !== state.filter.contextId) {
      // A conversation's link: the composer writes into it.
      state.context = filter.contextId;
      renderComposerTarget();
    }
    const asked = !sameQuery(listQuery(filter), listQuery(state.filter));
    state.filter = filter;
    renderTask();
    // A state or a conversation the server filters by: ask it now, not at the next poll.
    if (asked) void poll();
  },
  (id) => void open(id),
);
renderComposerTarget();
void poll().then(() => refreshTriggers());
setInterval(() => void poll(), POLL_MS);
setInterval(() => void refreshTriggers(), TRIGGERS_MS);
