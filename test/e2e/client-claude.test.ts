/**
 * `claude-a2a send|chat|tasks` against our server, the REAL Claude Code runtime and the scripted
 * model. `chat` runs as a process in a pseudo-terminal (node-pty) and is driven with keystrokes.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import { GuardedRequestHandler } from "../../src/a2a/handler/guarded-request-handler.js";
import {
  a2a,
  afterTool,
  asks,
  KEY,
  listRequest,
  question,
  reply,
  says,
  temp,
  terminal,
  text,
  toolUse,
  writes,
  type HarnessOptions,
} from "../support/harness/index.js";

/** The server, and the terminal client pointed at it (its config in a temp dir of its own). */
async function start(options: HarnessOptions) {
  const h = await a2a(options);
  return { h, cli: await terminal(h.server.url) };
}

describe("claude-a2a send (our server, real runtime)", () => {
  it("streams the answer, one line per tool call and per written file, and exits 0", async () => {
    const { h, cli } = await start({
      rules: [
        {
          name: "write",
          match: { lastUserText: "Write the notes", toolResult: false },
          reply: reply([
            text("Writing them."),
            toolUse("Write", { file_path: "notes.md", content: "# notes\n" }),
          ]),
        },
        says("And again", "Again.", "again"),
        {
          name: "done",
          match: { toolResult: true },
          reply: reply(text("The notes are written."), { chunkSize: 6 }),
        },
      ],
    });
    const r = await cli.run(["send", "Write the notes"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("• Calling tool Write\n");
    expect(r.out).toContain("wrote notes.md\n");
    expect(r.out).toContain("The notes are written.");
    // Two replies: the Write call and the answer, at the runtime's price of the scripted usage.
    expect(r.out.endsWith("[completed] $0.00066 · 20 in, 40 out tokens\n")).toBe(true);
    // The answer text is printed once, not again from the `result` status or the closing chunk.
    expect(r.out.split("The notes are written.")).toHaveLength(2);
    expect(await readFile(join(h.bench.sandbox.cwd, "notes.md"), "utf8")).toBe("# notes\n");

    // The next send continues the same conversation (same context: the same Claude process).
    const again = await cli.run(["send", "And again"]);
    expect(again.code).toBe(0);
    expect(h.spawns()).toBe(1);

    // tasks lists what was done.
    const list = await cli.run(["tasks"]);
    expect(list.code).toBe(0);
    const rows = list.out.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.includes(" completed "))).toBe(true);
    expect(list.out).toContain("Write the notes");
    expect(list.out).toContain("And again");
    const id = rows.find((row) => row.includes("Write the notes"))?.split(/\s+/)[0] ?? "";
    const shown = await cli.run(["task", id]);
    expect(shown.out).toContain("file notes.md (created");
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it("--json prints each stream event as one JSON line", async () => {
    const { cli } = await start({
      rules: [says("ping", "pong")],
    });
    const r = await cli.run(["send", "--json", "ping"]);
    expect(r.code).toBe(0);
    const events = r.out
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as Record<
            string,
            { status?: { state?: string; message?: { metadata?: { kind?: string } } } }
          >,
      );
    expect(Object.keys(events[0] ?? {})).toEqual(["task"]);
    expect(events.at(-1)?.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
    expect(events.some((e) => e.statusUpdate?.status?.message?.metadata?.kind === "result")).toBe(
      true,
    );
  });

  it("a failed turn exits 1 with the reason on stderr", async () => {
    const { cli } = await start({
      rules: [{ match: { lastUserText: "break" }, reply: { kind: "bad_request" } }],
    });
    const r = await cli.run(["send", "break"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^claude-a2a: task \S+ failed: /);
  });
});

describe("claude-a2a chat in a terminal (our server, real runtime)", () => {
  it("a permission prompt answered Allow with the arrow keys lets the write happen", async () => {
    const outside = join((await temp("claude-a2a-client-e2e-")).path, "outside", "report.txt");
    const { h: harness, cli } = await start({
      rules: [
        writes("Save the report", outside, "report\n", "write-outside"),
        afterTool(true, "Saved the report.", "saved"),
      ],
    });
    const t = cli.chat();
    await t.waitFor("Ctrl-C during a turn cancels it");
    let at = await t.waitFor(">");
    t.write("Save the report\r");
    at = await t.waitFor("! Permission", { from: at });
    await t.waitFor(`input:  ${outside}`, { from: at });
    at = await t.waitFor("Allow Write?", { from: at });
    t.write(KEY.enter); // the first choice: Allow
    at = await t.waitFor("Saved the report.", { from: at });
    await t.waitFor("[completed]", { from: at });
    expect(await readFile(outside, "utf8")).toBe("report\n");
    t.write("/exit\r");
    expect(await t.exited).toBe(0);
    expect(harness.bench.model.unmatched).toEqual([]);
  });

  it("a question answered with the arrow keys reaches the model as the chosen label", async () => {
    const { h: harness, cli } = await start({
      rules: asks("Paint the fence", {
        answer: /blue/,
        then: "Painting it blue.",
        name: "after-answer",
      }),
    });
    const t = cli.chat();
    let at = await t.waitFor("Ctrl-C during a turn cancels it");
    t.write("Paint the fence\r");
    at = await t.waitFor("[Colour] Which colour do you prefer?", { from: at });
    await t.waitFor("Other (type an answer)", { from: at });
    t.write(KEY.down); // red → blue
    await t.waitFor("Choose blue", { from: at }); // the description of the highlighted choice
    t.write(KEY.enter);
    at = await t.waitFor("Painting it blue.", { from: at });
    await t.waitFor("[completed]", { from: at });
    const answered = harness.bench.model.requests.find((r) => r.rule === "after-answer")?.request;
    expect(answered?.toolResults[0]?.content).toContain('"Which colour do you prefer?"="blue"');
    t.write(KEY.ctrlC); // at the prompt: leaves
    expect(await t.exited).toBe(0);
  });

  it("a multi-select question ticked with Space, then a permission denied with a reason", async () => {
    const outside = join((await temp("claude-a2a-client-e2e-")).path, "outside", "pizza.txt");
    const toppings = question(
      "Which toppings?",
      "Toppings",
      [
        ["cheese", "Mozzarella"],
        ["ham", "Cooked ham"],
        ["olives", "Black olives"],
      ],
      true,
    );
    const { h: harness, cli } = await start({
      rules: [
        {
          name: "ask",
          match: { lastUserText: "Order a pizza", toolResult: false },
          reply: reply(toolUse("AskUserQuestion", { questions: [toppings] })),
        },
        {
          name: "write-order",
          match: { toolResult: /Which toppings/ },
          reply: reply(toolUse("Write", { file_path: outside, content: "pizza\n" })),
        },
        afterTool(/denied this action/, "Not writing the order.", "after-deny"),
      ],
    });
    const t = cli.chat();
    let at = await t.waitFor("Ctrl-C during a turn cancels it");
    t.write("Order a pizza\r");
    at = await t.waitFor("[Toppings] Which toppings?", { from: at });
    at = await t.waitFor("Other (type an answer)", { from: at });
    t.write(KEY.space); // cheese
    at = await t.waitFor("◉ cheese", { from: at });
    t.write(KEY.down + KEY.down); // olives
    at = await t.waitFor("Black olives", { from: at });
    t.write(KEY.space);
    at = await t.waitFor("◉ olives", { from: at });
    t.write(KEY.enter);
    at = await t.waitFor("Allow Write?", { from: at });
    t.write(KEY.down + KEY.down); // Deny, with a reason
    await t.waitFor("❯ Deny, with a reason", { from: at });
    t.write(KEY.enter);
    at = await t.waitFor("Reason:", { from: at });
    t.write("not outside the workspace\r");
    at = await t.waitFor("Not writing the order.", { from: at });
    await t.waitFor("[completed]", { from: at });

    const requests = harness.bench.model.requests;
    const answered = requests.find((r) => r.rule === "write-order")?.request;
    expect(answered?.toolResults[0]?.content).toContain('"Which toppings?"="cheese, olives"');
    const denied = requests.find((r) => r.rule === "after-deny")?.request;
    expect(denied?.toolResults[0]?.content).toContain("not outside the workspace");
    await expect(access(outside)).rejects.toThrow();
    t.write("/exit\r");
    expect(await t.exited).toBe(0);
    expect(harness.bench.model.unmatched).toEqual([]);
  });

  it("Ctrl-C during a slow turn cancels the task (CANCELED) and the chat goes on", async () => {
    const slow = "This answer takes a long while to stream. ".repeat(60);
    const { h: harness, cli } = await start({
      rules: [
        {
          name: "slow",
          match: { lastUserText: "Tell me a long story" },
          reply: reply(text(slow), { chunkSize: 4, chunkDelayMs: 40 }),
        },
        says("Still there?", "Yes.", "short"),
      ],
    });
    const t = cli.chat();
    let at = await t.waitFor("Ctrl-C during a turn cancels it");
    t.write("Tell me a long story\r");
    at = await t.waitFor("This answer", { from: at });
    t.write(KEY.ctrlC);
    at = await t.waitFor("canceling the task", { from: at });
    at = await t.waitFor("[canceled]", { from: at });
    const list = await harness.client.listTasks({ ...listRequest(""), pageSize: 10 });
    expect(list.tasks.map((task) => task.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
    // The client is still there, in the same context.
    t.write("Still there?\r");
    at = await t.waitFor("Yes.", { from: at });
    await t.waitFor("[completed]", { from: at });
    t.write("/exit\r");
    expect(await t.exited).toBe(0);
    await access(join(cli.configHome, "claude-a2a", "contexts.json"));

    // A second Ctrl-C during a turn leaves the client (exit 130) after asking for the cancel. The
    // server holds that cancel, so the second Ctrl-C lands while the turn still runs: a cancel
    // answered at once would end the turn first, and the test would measure a race.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its `this` below
    const cancelTask = GuardedRequestHandler.prototype.cancelTask;
    const hold = vi
      .spyOn(GuardedRequestHandler.prototype, "cancelTask")
      .mockImplementation(async function (this: GuardedRequestHandler, ...args) {
        await held;
        return cancelTask.apply(this, args);
      });
    try {
      const again = cli.chat(["--continue"]);
      at = await again.waitFor("Ctrl-C during a turn cancels it");
      again.write("Tell me a long story\r");
      at = await again.waitFor("This answer", { from: at });
      again.write(KEY.ctrlC);
      await again.waitFor("canceling the task", { from: at });
      await vi.waitFor(() => expect(hold).toHaveBeenCalled(), { timeout: 10_000 });
      again.write(KEY.ctrlC);
      expect(await again.exited).toBe(130);
    } finally {
      release();
      hold.mockRestore();
    }
  });
});
