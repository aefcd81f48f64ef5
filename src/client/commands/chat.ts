import { input } from "@inquirer/prompts";
import type { Part, Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { errorMessage } from "../connect.js";
import { session, write, type ClientEnv, type CommonOptions, type Session } from "../env.js";
import { textPart, userMessage } from "../message-parts.js";
import { answerInteractively, isPromptExit, type PromptContext } from "../prompts.js";
import { newView, renderEvent, type TurnView } from "../render.js";
import { describeRequest, EXIT, renderEnd, type EndOptions } from "../render-end.js";
import { cancelAtPrompt } from "../settled-usage.js";
import { streamTurn } from "../turn.js";
import { rememberedContext } from "../remembered.js";
import { offersControl, steerWhileRunning } from "../steering.js";
import { CONTROL_HEADERS, parseControlCommand, type ControlCommand } from "../control-commands.js";
import { isParkedState, isTerminalState } from "../../contract/task-states.js";

export interface ChatOptions extends CommonOptions {
  context?: string;
  continue?: boolean;
  /** `--no-cost`: false. */
  cost?: boolean;
}

/** How often chat looks for autonomous tasks in its context while waiting at the prompt. */
const WATCH_INTERVAL_MS = 1500;

class Interrupted extends Error {}

/** One turn (Ctrl-C: CancelTask, twice: leave); with `steer`, a line typed meanwhile steers. */
async function runTurn(
  client: Client,
  parts: Part[],
  ids: { taskId?: string; contextId?: string },
  s: Session,
  e: ClientEnv,
  steer: boolean,
  control?: Extract<ControlCommand, { kind: "send" }>,
): Promise<TurnView> {
  const view = newView();
  const steering = steer
    ? steerWhileRunning(client, () => view, {
        input: e.input ?? process.stdin,
        colors: s.colors,
        err: (t) => e.err(t),
      })
    : undefined;
  const abort = new AbortController();
  let interrupts = 0;
  let cancelWanted = false;
  let cancelSent = false;
  const cancel = () => {
    if (cancelSent || view.taskId === undefined) return;
    cancelSent = true;
    client
      .cancelTask({ tenant: "", id: view.taskId, metadata: undefined })
      .catch((err: unknown) => {
        e.err(`claude-a2a: cancel failed: ${errorMessage(err)}\n`);
      });
  };
  const off = e.onInterrupt(() => {
    interrupts++;
    if (interrupts >= 2) {
      abort.abort(new Interrupted());
      return;
    }
    e.err(s.colors.yellow("\n^C canceling the task (Ctrl-C again to quit)\n"));
    cancelWanted = true;
    cancel();
  });
  try {
    const message = userMessage(parts, ids);
    if (control) message.metadata = control.metadata;
    await streamTurn(
      client,
      message,
      e,
      {
        colors: s.colors,
        signal: abort.signal,
        ...(control && { headers: CONTROL_HEADERS }),
        onEvent: () => {
          if (cancelWanted) cancel();
          if (view.taskId !== undefined) steering?.taskKnown();
        },
      },
      view,
    );
  } catch (err) {
    if (abort.signal.aborted) throw new Interrupted();
    throw err;
  } finally {
    off();
    steering?.stop();
  }
  return view;
}

/** Shows a task the agent started by itself in this context: its stream if live, else its end. */
async function showAutonomous(
  client: Client,
  task: Task,
  s: Session,
  e: ClientEnv,
  end: EndOptions,
): Promise<void> {
  e.out(
    s.colors.magenta(`\n[background] task ${task.id} (${task.metadata?.origin ?? "autonomous"})\n`),
  );
  const view = newView();
  const full = await client.getTask({ tenant: "", id: task.id, historyLength: 0 });
  if (isTerminalState(full.status?.state) || isParkedState(full.status?.state)) {
    write(e, renderEvent(view, { payload: { $case: "task", value: full } }, s.colors));
    // A snapshot of a finished task: show its artifacts even when the agent streams.
    if (!view.streamedText)
      for (const a of full.artifacts)
        write(
          e,
          renderEvent(
            view,
            {
              payload: {
                $case: "artifactUpdate",
                value: {
                  taskId: full.id,
                  contextId: full.contextId,
                  artifact: a,
                  append: false,
                  lastChunk: true,
                  metadata: undefined,
                },
              },
            },
            s.colors,
          ),
        );
  } else {
    for await (const event of client.resubscribeTask({ tenant: "", id: task.id }))
      write(e, renderEvent(view, event, s.colors));
  }
  write(e, renderEnd(view, s.colors, undefined, end));
}

/** Lists the context's tasks not seen yet that the agent started by itself. */
async function newAutonomous(
  client: Client,
  contextId: string,
  seen: Set<string>,
): Promise<Task[]> {
  const res = await client.listTasks({
    tenant: "",
    contextId,
    status: 0,
    pageSize: 20,
    pageToken: "",
    historyLength: 0,
    statusTimestampAfter: undefined,
    includeArtifacts: false,
  });
  const fresh = res.tasks.filter((t) => !seen.has(t.id));
  for (const t of fresh) seen.add(t.id);
  return fresh.filter((t) => t.metadata?.origin === "autonomous").reverse();
}

/** Waits at the prompt; returns undefined when autonomous tasks arrived first (shown, then re-prompt). */
async function prompt(
  client: Client,
  contextId: string | undefined,
  seen: Set<string>,
  ctx: PromptContext,
  s: Session,
  e: ClientEnv,
  end: EndOptions,
): Promise<string | undefined> {
  const abort = new AbortController();
  let arrived: Task[] = [];
  let timer: NodeJS.Timeout | undefined;
  const watch = () => {
    timer = setTimeout(() => {
      if (contextId === undefined) return;
      newAutonomous(client, contextId, seen).then(
        (tasks) => {
          if (tasks.length > 0) {
            arrived = tasks;
            abort.abort();
          } else watch();
        },
        () => watch(),
      );
    }, WATCH_INTERVAL_MS);
  };
  watch();
  try {
    return await input({ message: ">" }, { ...ctx, signal: abort.signal });
  } catch (err) {
    if (arrived.length > 0 && abort.signal.aborted) {
      for (const t of arrived) await showAutonomous(client, t, s, e, end);
      return undefined;
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

export async function chatCommand(o: ChatOptions, e: ClientEnv): Promise<number> {
  const s = session(o, e);
  const c = s.colors;
  const end: EndOptions = { cost: o.cost !== false };
  const ctx: PromptContext = {
    ...(e.input && { input: e.input }),
    ...(e.output && { output: e.output }),
  };
  let client: Client;
  let contextId = o.context;
  const seen = new Set<string>();
  let steer = false;
  const chatTasks: string[] = []; // the tasks this chat ran, in order: `/rewind #n` counts them
  try {
    client = await s.client();
    if (contextId === undefined && o.continue)
      contextId = await rememberedContext(s, client, (t) => e.err(t), c);
    const card = await client.getAgentCard();
    steer = offersControl(card, "steer");
    e.out(
      `${c.bold(card.name || "A2A agent")} at ${s.url}${contextId ? c.dim(` (context ${contextId})`) : ""}\n`,
    );
    e.out(
      c.dim(
        "Type a message. Ctrl-C during a turn cancels it; Ctrl-C at the prompt or /exit quits; /new starts a new conversation; /rewind and /fork go back or branch.\n",
      ),
    );
    if (steer) e.out(c.dim("Type while Claude works to steer it (Enter sends).\n"));
    if (contextId) for (const t of await newAutonomous(client, contextId, seen)) seen.add(t.id);
  } catch (err) {
    e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    return EXIT.failed;
  }
  for (;;) {
    let text: string | undefined;
    try {
      text = await prompt(client, contextId, seen, ctx, s, e, end);
    } catch (err) {
      if (isPromptExit(err)) return EXIT.ok;
      e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
      return EXIT.failed;
    }
    if (text === undefined) continue;
    const line = text.trim();
    if (line === "") continue;
    if (line === "/exit" || line === "/quit") return EXIT.ok;
    if (line === "/new") {
      contextId = undefined;
      e.out(c.dim("New conversation.\n"));
      continue;
    }
    const control = parseControlCommand(line, chatTasks);
    if (control?.kind === "usage") {
      e.out(c.dim(`${control.text}\n`));
      continue;
    }
    const stayIn = contextId; // a refused fork (a request error: no task) stays in this context
    if (control?.newContext) contextId = undefined;
    let parts: Part[] = [textPart(control ? control.text : text)];
    let taskId: string | undefined;
    try {
      for (;;) {
        const first = taskId === undefined ? control : undefined;
        const view = await runTurn(client, parts, { taskId, contextId }, s, e, steer, first);
        if (view.taskId) seen.add(view.taskId);
        if (view.taskId && !chatTasks.includes(view.taskId)) chatTasks.push(view.taskId);
        if (view.contextId && view.contextId !== contextId) {
          contextId = view.contextId;
          await s.memory.set(s.url, contextId);
        }
        if (!isParkedState(view.state) || view.taskId === undefined) {
          write(e, renderEnd(view, c, undefined, end));
          break;
        }
        if (!view.atLineStart) e.out("\n");
        const req = view.input ?? { kind: "text" as const, text: "" };
        // A question shows in its own prompt; a permission or a text (a plan to approve) here.
        if (req.kind !== "question") for (const l of describeRequest(req, c)) e.out(`${l}\n`);
        taskId = view.taskId;
        try {
          parts = await answerInteractively(req, ctx);
        } catch (err) {
          if (!isPromptExit(err)) throw err;
          e.err(c.yellow("canceling the task\n"));
          write(e, renderEnd(await cancelAtPrompt(client, taskId), c, undefined, end));
          break;
        }
      }
    } catch (err) {
      if (err instanceof Interrupted) return EXIT.interrupted;
      contextId ??= stayIn;
      e.err(`claude-a2a: ${errorMessage(err, s.url)}\n`);
    }
  }
}
