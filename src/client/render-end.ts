/**
 * How a turn ends in the terminal: the exit code of `send`, how an input request reads, and the
 * closing lines (state, cost, a failure's reason, what to answer). Pure: the caller writes.
 */
import { TaskState } from "@a2a-js/sdk";
import { isParkedState, isTerminalState } from "../contract/task-states.js";
import type { Colors } from "./colors.js";
import { describeInput, type InputRequest } from "./interaction.js";
import { chunk, line, stateName, type Output, type TurnView } from "./render.js";
import { costText } from "./usage-view.js";

/** Exit codes of `send`: 0 completed, 1 failed/canceled/rejected/error, 3 waiting for input. */
export const EXIT = { ok: 0, failed: 1, usage: 2, inputRequired: 3, interrupted: 130 } as const;

export function exitCode(view: TurnView): number {
  if (view.answeredByMessage || view.state === TaskState.TASK_STATE_COMPLETED) return EXIT.ok;
  if (isParkedState(view.state)) return EXIT.inputRequired;
  return EXIT.failed;
}

/** How an input request reads in the terminal (for `send`, and above chat's prompts). */
export function describeRequest(req: InputRequest, c: Colors): string[] {
  switch (req.kind) {
    case "question":
      return req.questions.flatMap((q) => [
        c.bold(
          `? ${q.header ? `[${q.header}] ` : ""}${q.question}${q.multiSelect ? " (several allowed)" : ""}`,
        ),
        ...q.options.map(
          (o) => `    - ${o.label}${o.description ? c.dim(`: ${o.description}`) : ""}`,
        ),
      ]);
    case "permission":
      return [
        c.bold(
          c.yellow(
            `! Permission: ${req.title || req.text.replace(/\.$/, "") || `use ${req.toolName}`}`,
          ),
        ),
        `    tool:   ${req.toolName}`,
        `    input:  ${describeInput(req.input)}`,
        ...(req.decisionReason ? [`    reason: ${req.decisionReason}`] : []),
      ];
    case "merge":
      return [
        c.bold(c.yellow(`! Merge approval: ${req.text}`)),
        `    files:  ${req.files.length === 0 ? "none changed" : req.files.join(", ")}`,
        `    checks: ${req.checks.length === 0 ? "none" : req.checks.join("; ")}`,
        ...(req.approvedBy === "operator" ? ["    only an operator may answer"] : []),
        `    answer yes to merge, or no (with a reason) to keep the work on its branch`,
      ];
    case "text":
      return [c.bold(`? ${req.text || "The agent needs input."}`)];
  }
}

export interface EndOptions {
  /** Prints what the task cost after its final state (`--no-cost`: false). Default true. */
  readonly cost?: boolean;
}

/** The closing lines of a turn: its state and cost, the reason of a failure, what to answer. */
export function renderEnd(
  view: TurnView,
  c: Colors,
  hint?: (taskId: string) => string,
  o: EndOptions = {},
): Output[] {
  if (view.answeredByMessage) return view.atLineStart ? [] : chunk(view, "\n");
  const name = stateName(view.state);
  const id = view.taskId ?? "?";
  const cost =
    o.cost !== false && view.usage !== undefined && isTerminalState(view.state)
      ? ` ${c.dim(costText(view.usage, view.delegatedTo))}`
      : "";
  if (view.state === TaskState.TASK_STATE_COMPLETED)
    return line(view, `${c.dim(`[${name}]`)}${cost}`);
  if (isParkedState(view.state)) {
    const req = view.input ?? { kind: "text" as const, text: "" };
    return [
      ...line(view, c.dim(`[${name}] task ${id}`)),
      ...describeRequest(req, c).flatMap((l) => line(view, l)),
      ...(hint ? line(view, c.dim(hint(id))) : []),
    ];
  }
  if (isTerminalState(view.state))
    return [
      ...line(view, `${c.red(`[${name}]`)}${cost}`),
      {
        to: "err",
        text: `claude-a2a: task ${id} ${name}${view.reason ? `: ${view.reason}` : ""}\n`,
      },
    ];
  return [
    ...line(view, c.red(`[${name}]`)),
    {
      to: "err",
      text: `claude-a2a: the stream ended before task ${id} finished (state ${name})\n`,
    },
  ];
}
