/**
 * The redesign plan's two real-runtime gates, on the REAL Claude Code runtime and the scripted
 * model:
 *  1. "do-it-again + immediate hello" under churn: a background task's wake races a foreground
 *     prompt sent the moment the wake begins, cycle after cycle, with no hang;
 *  2. transcript/timeline parity after that race: every assistant message the runtime wrote to
 *     its transcript is in streamHistory().
 */
import { describe, expect, it } from "vitest";
import {
  defaultHistoryLoader,
  type AssistantTimelineEntry,
  type ClaudeSession,
  type RunStream,
  type RunStreamEvent,
} from "../../src/claude/index.js";
import {
  afterTool,
  bench,
  reply,
  text,
  toolUse,
  type FakeModel,
  type Rule,
} from "../support/harness/index.js";
import { history, openSession } from "../support/harness/session.js";
import {
  collectRun,
  streamedText,
  within,
  type SessionEventLog,
} from "../support/session-events.js";

const WAIT_MS = 20_000;

const cycleOf = (s: string, re: RegExp) => Number(re.exec(s)?.[1] ?? "0");
/** What the wake finally says, slowly: 3 characters every 25 ms, ~1 s unless interrupted. */
const wakeText = (n: number) => `Job ${n} is done. `.repeat(8);

/**
 * Per cycle n: a prompt starts a short background job; the wake checks the job with one tool
 * round, then reports slowly; the hello is answered. The hello rule comes first: the runtime may
 * fold a hello queued during the wake into the wake's turn at its tool round.
 */
const churnRules: Rule[] = [
  {
    name: "hello",
    match: { lastUserText: /Cycle \d+: hello/ },
    reply: (req) => reply(text(`HELLO ${cycleOf(req.lastUserText, /Cycle (\d+): hello/)}`)),
  },
  {
    name: "start-job",
    match: { lastUserText: /Cycle \d+: start the job\./, toolResult: false },
    reply: (req) => {
      const n = cycleOf(req.lastUserText, /Cycle (\d+): start/);
      return reply(
        toolUse("Bash", {
          command: `sleep 0.2 && echo job-${n}-done`,
          description: `job-${n}`,
          run_in_background: true,
        }),
      );
    },
  },
  afterTool(/running in background/i, "Started the job.", "job-started"),
  {
    name: "wake-check",
    match: { lastUserText: /<task-notification>[\s\S]*job-\d+/, toolResult: false },
    reply: (req) =>
      reply(
        toolUse("Bash", {
          command: `echo wake-check-${cycleOf(req.lastUserText, /job-(\d+)/)}`,
          description: "check the job",
        }),
      ),
  },
  {
    name: "wake-report",
    match: { toolResult: /wake-check-\d+/ },
    reply: (req) =>
      reply(text(wakeText(cycleOf(req.toolResults[0]?.content ?? "", /wake-check-(\d+)/))), {
        chunkSize: 3,
        chunkDelayMs: 25,
      }),
  },
];

const collect = (stream: AsyncIterable<RunStreamEvent>, what: string) =>
  collectRun(stream, what, WAIT_MS);

interface CycleOutcome {
  /** Undefined when the runtime batched the notification into the hello's turn. */
  autonomousRunId: string | undefined;
  helloRunId: string;
}

/** When, in a cycle, the hello goes out. */
type HelloMoment = "on run_started" | "after run_started" | "on first wake text" | "on task done";
const MOMENTS: readonly HelloMoment[] = [
  "on task done",
  "on run_started",
  "after run_started",
  "on first wake text",
];

/**
 * One cycle: a prompt starts a short background job; as its wake begins, a hello is sent. The
 * moment rotates: synchronously in the listener of the autonomous run_started; on the next
 * macrotask after it; on the wake's first streamed text (cut mid-sentence); on the task's
 * notification, before the wake's first frame (the runtime queues the hello behind the wake, or
 * folds it into the wake's turn at its tool round). Every wait is bounded and names the cycle.
 */
async function churnCycle(
  s: ClaudeSession,
  events: SessionEventLog,
  model: FakeModel,
  n: number,
): Promise<CycleOutcome> {
  const moment = MOMENTS[n % MOMENTS.length] ?? "on run_started";
  const label = `cycle ${n} (hello ${moment})`;
  let hello: RunStream | undefined;
  let helloSent: (stream: RunStream) => void = () => undefined;
  const helloStream = new Promise<RunStream>((resolve) => (helloSent = resolve));
  let statusAtWake: string | undefined;
  const sendHello = () => {
    if (hello !== undefined) return;
    hello = s.stream(`Cycle ${n}: hello`);
    helloSent(hello);
  };
  let wakeRunId: string | undefined;
  const unsubscribe = s.subscribe((e) => {
    if (e.type === "run_started" && e.origin === "autonomous" && wakeRunId === undefined) {
      wakeRunId = e.runId;
      statusAtWake = s.status;
      if (moment === "on run_started") sendHello();
      else if (moment === "after run_started") setImmediate(sendHello);
    } else if (moment === "on task done" && e.type === "background_task_finished") {
      sendHello();
    } else if (
      moment === "on first wake text" &&
      e.type === "run_event" &&
      e.runId === wakeRunId &&
      e.event.kind === "stream" &&
      e.event.part.type === "content_block_delta" &&
      e.event.part.delta.type === "text"
    ) {
      sendHello();
    }
  });
  try {
    const start = s.stream(`Cycle ${n}: start the job.`);
    expect((await collect(start, `${label}: the job prompt`)).at(-1)).toEqual({
      kind: "run_completed",
      runId: start.runId,
      text: "Started the job.",
    });
    // From the job prompt's ending on (the task may finish, and a hello go out, right after it).
    const from = events.events.findIndex((e) => e.type === "run_ended" && e.runId === start.runId);
    const helloRun = await within(helloStream, WAIT_MS, `${label}: the hello to be sent`);
    const helloEvents = await collect(helloRun, `${label}: the hello reply`);
    expect(helloEvents.at(-1), `${label}: hello`).toEqual({
      kind: "run_completed",
      runId: helloRun.runId,
      text: `HELLO ${n}`,
    });
    // Nothing of the wake reached the prompt.
    expect(streamedText(helloEvents), `${label}: hello stream`).toBe(`HELLO ${n}`);
    if (wakeRunId === undefined && moment === "on task done") {
      // The runtime may also batch the notification and the hello into one turn: the hello's
      // turn, with no wake of its own. Then its request carries the notification.
      const asked = model.requests.filter((r) => r.rule === "hello").at(-1);
      if (asked?.request.lastUserText.includes("<task-notification>") === true) {
        expect(await s.waitForFinish(WAIT_MS), `${label}: waitForFinish`).toBe("idle");
        return { autonomousRunId: undefined, helloRunId: helloRun.runId };
      }
    }
    const wake = await events.waitForType("run_started", (e) => e.origin === "autonomous", {
      timeoutMs: WAIT_MS,
      what: `${label}: the autonomous wake to start`,
      from,
    });
    // The running transition: announced after the job prompt's idle, and true at the wake. On a
    // loaded machine the job can finish, and the hello go out, before the job prompt's run ends:
    // the hello's turn then follows it with no idle between, and running is never re-announced.
    const wakeAt = events.events.indexOf(wake);
    const idleAt = events.events.findIndex(
      (e, i) => i >= from && i < wakeAt && e.type === "status" && e.status === "idle",
    );
    const before = events.of("status").filter((e) => events.events.indexOf(e) < wakeAt);
    if (idleAt >= 0 || before.at(-1)?.status !== "running") {
      await events.waitForType("status", (e) => e.status === "running", {
        timeoutMs: WAIT_MS,
        what: `${label}: status running`,
        from: idleAt >= 0 ? idleAt : from,
      });
    }
    expect(statusAtWake, `${label}: status when the wake began`).toBe("running");
    const wakeEnded = await events.waitForType("run_ended", (e) => e.runId === wake.runId, {
      timeoutMs: WAIT_MS,
      what: `${label}: the wake run to end`,
      from: events.events.indexOf(wake),
    });
    expect(["completed", "interrupted"], `${label}: wake outcome`).toContain(
      wakeEnded.outcome.state,
    );
    expect(await s.waitForFinish(WAIT_MS), `${label}: waitForFinish`).toBe("idle");
    return { autonomousRunId: wake.runId, helloRunId: helloRun.runId };
  } finally {
    unsubscribe();
  }
}

describe("the plan's real-runtime gates", () => {
  it("gate 1: do-it-again + immediate hello under churn never hangs (12 cycles)", async () => {
    const b = await bench(churnRules);
    const { session: s, counting, events } = openSession(b);
    const cycles: CycleOutcome[] = [];
    for (let n = 1; n <= 12; n++) cycles.push(await churnCycle(s, events, b.model, n));

    // The race was real: every hello sent while the wake ran took the atomic handoff.
    const handoffs = events.of("turn_state").filter((t) => t.from === "autonomous");
    expect(handoffs.filter((t) => t.to === "foreground").length).toBeGreaterThanOrEqual(9);
    expect(counting.count).toBe(1);
    expect(s.status).toBe("idle");
    expect(s.turnState).toBe("idle");
    expect(s.runs().filter((r) => !["completed", "interrupted"].includes(r.state))).toEqual([]);
    const timeline = await history(s);
    for (const [i, c] of cycles.entries()) {
      const hello = timeline.find((e) => e.kind === "assistant" && e.runId === c.helloRunId);
      expect(hello?.text, `cycle ${i + 1}: hello in the timeline`).toBe(`HELLO ${i + 1}`);
    }
    expect(b.model.unmatched).toEqual([]);
  }, 180_000);

  it("gate 2: after the race, every transcript assistant message is in streamHistory()", async () => {
    const b = await bench(churnRules);
    const { session: s, events } = openSession(b);
    const cycles: CycleOutcome[] = [];
    for (let n = 1; n <= 4; n++) cycles.push(await churnCycle(s, events, b.model, n));
    // One last wake nobody races: it completes.
    const from = events.mark();
    await collect(s.stream("Cycle 5: start the job."), "cycle 5: the job prompt");
    const lastWake = await events.waitForType("run_ended", (e) => e.origin === "autonomous", {
      timeoutMs: WAIT_MS,
      what: "cycle 5: the wake to complete",
      from,
    });
    expect(lastWake.outcome).toEqual({ state: "completed", text: wakeText(5) });
    const sessionId = s.sessionId;
    if (sessionId === undefined) throw new Error("no session id");
    const timeline = await history(s);
    await s.close();

    const transcript = await defaultHistoryLoader(sessionId, {
      cwd: b.sandbox.cwd,
      env: b.sandbox.env,
    });
    // The transcript has one line per content block; the timeline one entry per API message.
    const byId = new Map<string, string>();
    for (const m of transcript) {
      if (m.type !== "assistant" || m.parent_tool_use_id !== null) continue;
      const message = m.message as { id: string; content: { type: string; text?: string }[] };
      const texts = message.content.map((b) => (b.type === "text" ? (b.text ?? "") : ""));
      byId.set(message.id, (byId.get(message.id) ?? "") + texts.join(""));
    }
    const assistants = timeline.filter((e): e is AssistantTimelineEntry => e.kind === "assistant");
    const missing = [...byId].filter(
      ([id, t]) => !assistants.some((e) => e.messageId === id && e.text === t),
    );
    expect(missing, "transcript messages missing from the timeline").toEqual([]);
    // The foreground replies and the autonomous completion are among them.
    const texts = [...byId.values()];
    for (let n = 1; n <= 4; n++) expect(texts).toContain(`HELLO ${n}`);
    expect(texts).toContain(wakeText(5));
    // Cycle 3's wake was cut mid-sentence by its hello: its partial text is in both.
    const cut = assistants.find((e) => e.runId === cycles[2]?.autonomousRunId && e.text !== "");
    expect(cut?.status).toBe("aborted");
    expect(cut?.text, "the wake cut by the hello of cycle 3").toMatch(/^Job/);
    expect(wakeText(3).startsWith(cut?.text ?? "-")).toBe(true);
    expect(byId.get(cut?.messageId ?? "")).toBe(cut?.text);
    expect(
      assistants.find((e) => e.text === wakeText(5))?.runId,
      "the completed wake belongs to its autonomous run",
    ).toBe(lastWake.runId);
    expect(b.model.unmatched).toEqual([]);
  }, 120_000);
});
