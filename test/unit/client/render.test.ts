import { describe, expect, it } from "vitest";
import { Role, TaskState, type Message, type Part, type StreamResponse } from "@a2a-js/sdk";
import { makeColors } from "../../../src/client/colors.js";
import {
  newView,
  parseState,
  renderEvent,
  type Output,
  type TurnView,
} from "../../../src/client/render.js";
import { exitCode, renderEnd } from "../../../src/client/render-end.js";

const c = makeColors(false);
const text = (value: string): Part => ({
  content: { $case: "text", value },
  mediaType: "",
  filename: "",
  metadata: undefined,
});
const data = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});
const msg = (parts: Part[], metadata?: Record<string, unknown>): Message => ({
  messageId: "m",
  contextId: "ctx",
  taskId: "t1",
  role: Role.ROLE_AGENT,
  parts,
  metadata,
  extensions: [],
  referenceTaskIds: [],
});
const task = (state: TaskState): StreamResponse => ({
  payload: {
    $case: "task",
    value: {
      id: "t1",
      contextId: "ctx",
      status: { state, message: undefined, timestamp: undefined },
      artifacts: [],
      history: [],
      metadata: undefined,
    },
  },
});
const status = (state: TaskState, message?: Message): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      taskId: "t1",
      contextId: "ctx",
      status: { state, message, timestamp: undefined },
      metadata: undefined,
    },
  },
});
const artifact = (
  id: string,
  parts: Part[],
  append: boolean,
  lastChunk: boolean,
  metadata?: Record<string, unknown>,
): StreamResponse => ({
  payload: {
    $case: "artifactUpdate",
    value: {
      taskId: "t1",
      contextId: "ctx",
      artifact: { artifactId: id, name: "", description: "", parts, metadata, extensions: [] },
      append,
      lastChunk,
      metadata: undefined,
    },
  },
});

function play(
  events: StreamResponse[],
  view: TurnView = newView(),
): { view: TurnView; out: string; err: string } {
  const outputs: Output[] = events.flatMap((e) => renderEvent(view, e, c));
  outputs.push(...renderEnd(view, c, (id) => `answer: ${id}`));
  return {
    view,
    out: outputs
      .filter((o) => o.to === "out")
      .map((o) => o.text)
      .join(""),
    err: outputs
      .filter((o) => o.to === "err")
      .map((o) => o.text)
      .join(""),
  };
}

/** A new task's turn: its submitted task event, then these. */
const newTurn = (...events: StreamResponse[]) =>
  play([task(TaskState.TASK_STATE_SUBMITTED), ...events]);

describe("rendering our event contract", () => {
  it("prints streamed text once (not again from the closing chunk or the result), tool and file lines, the state", () => {
    const assistant = { kind: "assistant_text" };
    const r = newTurn(
      status(TaskState.TASK_STATE_WORKING),
      artifact("response-1", [text("Writing ")], false, false, assistant),
      artifact("response-1", [text("it.")], true, false, assistant),
      status(
        TaskState.TASK_STATE_WORKING,
        msg([text("Calling tool Write")], { kind: "tool_use", toolName: "Write" }),
      ),
      artifact("file:notes.md", [], false, false, {
        kind: "file",
        path: "notes.md",
        operation: "created",
      }),
      artifact("response-1", [text("Writing it.")], false, true, assistant),
      status(TaskState.TASK_STATE_WORKING, msg([text("Writing it.")], { kind: "result" })),
      status(TaskState.TASK_STATE_COMPLETED),
    );
    expect(r.out).toBe("Writing it.\n• Calling tool Write\nwrote notes.md\n[completed]\n");
    expect(r.err).toBe("");
    expect(exitCode(r.view)).toBe(0);
  });

  it("prints one line for a worktree task's diff artifact, not the diff", () => {
    const r = newTurn(
      artifact("diff", [text("diff --git a/x b/x")], false, true, {
        kind: "diff",
        branch: "claude-a2a/ctx-0123456789",
        commit: "89abcdef0123456789abcdef0123456789abcdef",
      }),
      status(TaskState.TASK_STATE_COMPLETED),
    );
    expect(r.out).toBe("committed 89abcdef0123 on claude-a2a/ctx-0123456789\n[completed]\n");
  });

  it("prints each delivery check as a line, and the proof of work's Markdown, not its JSON", () => {
    const r = newTurn(
      status(
        TaskState.TASK_STATE_WORKING,
        msg([text("Delivery round 1: check test failed with exit code 1 (0.2 s).")], {
          kind: "delivery",
        }),
      ),
      artifact(
        "proof-of-work",
        [data({ rounds: 2 }), text("# Proof of work\n\n- Rounds: 2\n")],
        false,
        true,
        { kind: "proof_of_work" },
      ),
      status(TaskState.TASK_STATE_COMPLETED),
    );
    expect(r.out).toBe(
      "• Delivery round 1: check test failed with exit code 1 (0.2 s).\n" +
        "# Proof of work\n\n- Rounds: 2\n[completed]\n",
    );
  });

  it("prints the result when no text was streamed (a client without file modes, an agent that does not stream)", () => {
    const r = newTurn(
      status(TaskState.TASK_STATE_WORKING, msg([text("Done.")], { kind: "result" })),
      status(TaskState.TASK_STATE_COMPLETED),
    );
    expect(r.out).toBe("Done.\n[completed]\n");
  });

  it("shows the queued note and nothing for resumed", () => {
    const r = newTurn(
      status(
        TaskState.TASK_STATE_SUBMITTED,
        msg(
          [text("Queued: another task is running in this context; this one starts when it ends.")],
          { kind: "queued" },
        ),
      ),
      status(
        TaskState.TASK_STATE_WORKING,
        msg([text("Resumed with the client's answer.")], { kind: "resumed" }),
      ),
      status(TaskState.TASK_STATE_COMPLETED),
    );
    expect(r.out).toBe(
      "Queued: another task is running in this context; this one starts when it ends.\n[completed]\n",
    );
  });

  it("a failure: exit 1, the reason on stderr", () => {
    const r = newTurn(
      status(TaskState.TASK_STATE_FAILED, msg([text("Claude Code process ended")])),
    );
    expect(r.out).toBe("[failed]\n");
    expect(r.err).toBe("claude-a2a: task t1 failed: Claude Code process ended\n");
    expect(exitCode(r.view)).toBe(1);
  });

  it("a canceled task exits 1; a stream that ends while working exits 1 and says so", () => {
    expect(
      exitCode(
        play([
          task(TaskState.TASK_STATE_SUBMITTED),
          status(TaskState.TASK_STATE_CANCELED, msg([text("Task canceled.")])),
        ]).view,
      ),
    ).toBe(1);
    const cut = play([task(TaskState.TASK_STATE_SUBMITTED), status(TaskState.TASK_STATE_WORKING)]);
    expect(exitCode(cut.view)).toBe(1);
    expect(cut.err).toBe("claude-a2a: the stream ended before task t1 finished (state working)\n");
  });

  it("a question: exit 3, the question with its options and how to answer", () => {
    const question = {
      question: "Which colour do you prefer?",
      header: "Colour",
      options: [{ label: "red", description: "Choose red" }, { label: "blue" }],
      multiSelect: false,
    };
    const r = newTurn(
      status(
        TaskState.TASK_STATE_INPUT_REQUIRED,
        msg(
          [
            text("Which colour do you prefer?"),
            data({ kind: "ask_user_question", questions: [question] }),
          ],
          { kind: "ask_user_question" },
        ),
      ),
    );
    expect(exitCode(r.view)).toBe(3);
    expect(r.out).toBe(
      "[input-required] task t1\n? [Colour] Which colour do you prefer?\n    - red: Choose red\n    - blue\nanswer: t1\n",
    );
  });

  it("a permission request: the tool, its input and the reason", () => {
    const r = newTurn(
      status(
        TaskState.TASK_STATE_INPUT_REQUIRED,
        msg(
          [
            text("Claude wants to run `rm -rf build`."),
            data({
              kind: "permission_request",
              toolName: "Bash",
              input: { command: "rm -rf build" },
              title: "Claude wants to run `rm -rf build`",
              decisionReason: "Bash command not in allowedTools",
            }),
          ],
          { kind: "permission_request" },
        ),
      ),
    );
    expect(r.out).toBe(
      "[input-required] task t1\n! Permission: Claude wants to run `rm -rf build`\n    tool:   Bash\n    input:  $ rm -rf build\n    reason: Bash command not in allowedTools\nanswer: t1\n",
    );
  });

  it("a resume snapshot in input-required followed by work is not a parked end", () => {
    const r = play([
      task(TaskState.TASK_STATE_INPUT_REQUIRED),
      status(TaskState.TASK_STATE_WORKING, msg([text("x")], { kind: "resumed" })),
      status(TaskState.TASK_STATE_COMPLETED),
    ]);
    expect(exitCode(r.view)).toBe(0);
  });
});

describe("rendering any other agent", () => {
  it("a message answer is printed as text and exits 0", () => {
    const r = play([{ payload: { $case: "message", value: msg([text("hi there")]) } }]);
    expect(r.out).toBe("hi there\n");
    expect(exitCode(r.view)).toBe(0);
  });

  it("a replacement artifact that does not continue the text starts on its own line; files are listed", () => {
    const raw: Part = {
      content: { $case: "raw", value: Buffer.from("abc") },
      mediaType: "image/png",
      filename: "a.png",
      metadata: undefined,
    };
    const r = newTurn(
      artifact("a", [text("draft")], false, false),
      artifact("a", [text("final")], false, true),
      artifact("b", [raw], false, true),
      status(TaskState.TASK_STATE_COMPLETED, msg([text("all done")])),
    );
    expect(r.out).toBe("draft\nfinal\nfile a.png (image/png, 3 bytes)\n[completed]\n");
  });

  it("a completed status with text and nothing streamed shows the text; an unmarked working text too", () => {
    const r = newTurn(
      status(TaskState.TASK_STATE_WORKING, msg([text("thinking")])),
      status(TaskState.TASK_STATE_COMPLETED, msg([text("42")])),
    );
    expect(r.out).toBe("thinking\n42\n[completed]\n");
  });

  it("a non-streaming agent's finished task is rendered whole", () => {
    const finished: StreamResponse = {
      payload: {
        $case: "task",
        value: {
          id: "t9",
          contextId: "c",
          status: {
            state: TaskState.TASK_STATE_COMPLETED,
            message: undefined,
            timestamp: undefined,
          },
          artifacts: [
            {
              artifactId: "x",
              name: "",
              description: "",
              parts: [text("the answer")],
              metadata: undefined,
              extensions: [],
            },
          ],
          history: [],
          metadata: undefined,
        },
      },
    };
    expect(play([finished]).out).toBe("the answer\n[completed]\n");
  });
});

describe("parseState", () => {
  it.each([
    ["completed", TaskState.TASK_STATE_COMPLETED],
    ["input-required", TaskState.TASK_STATE_INPUT_REQUIRED],
    ["INPUT_REQUIRED", TaskState.TASK_STATE_INPUT_REQUIRED],
    ["TASK_STATE_CANCELED", TaskState.TASK_STATE_CANCELED],
    ["sleepy", undefined],
  ])("%s", (name, state) => {
    expect(parseState(name)).toBe(state);
  });
});

describe("rendering a steering message Claude took", () => {
  it("prints the client's own message, marked, once the stream says steered", () => {
    const steered: Message = {
      ...msg([text("Also update the changelog.")], { kind: "steered" }),
      role: Role.ROLE_USER,
    };
    const r = play([
      task(TaskState.TASK_STATE_WORKING),
      status(TaskState.TASK_STATE_WORKING, steered),
      status(TaskState.TASK_STATE_WORKING, msg([text("Done.")], { kind: "result" })),
      status(TaskState.TASK_STATE_COMPLETED),
    ]);
    expect(r.out).toBe("↳ Claude took: Also update the changelog.\nDone.\n[completed]\n");
  });
});
