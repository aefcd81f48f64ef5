/**
 * Faults a client survives (docs/reliability.md "Faults"), with the real runtime, the scripted
 * model and the official client: streams cut at random points by a loopback TCP proxy, 200
 * times across blocking sends, streaming sends and subscriptions, every client resuming from
 * its last event number (or retrying with the same messageId) and ending with the exact scripted
 * text and the right terminal state; and a client gone during a permission prompt, back with
 * its cursor, that still sees the prompt and answers it.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskState, type Message, type StreamResponse, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { endsStream, eventNumberOf } from "../../src/a2a/channel/event-numbers.js";
import {
  a2a,
  afterTool,
  describeStream,
  lastStatus,
  listRequest,
  perTest,
  reply,
  sendRequest,
  text,
  userMessage,
  writes,
} from "../support/harness/index.js";
import { seeded, startCuttingProxy } from "../support/cutting-proxy.js";

const CUTS = Number(process.env.CUTS ?? 200);
/** The scripted answer: 24 deltas of 12 characters, each its own event (streaming.flushMs 0). */
const ANSWER = Array.from({ length: 24 }, (_, i) => `chunk-${String(i).padStart(3, "0")}-ok `).join(
  "",
);

/**
 * A `fetch` that sends every request for the server at `serverUrl` through the proxy instead.
 * The card is read directly (a cut there is no stream to resume: the client is only being
 * built); the card names the server as localhost or 127.0.0.1: either way, the calls go
 * through the proxy.
 */
function throughProxy(serverUrl: string, proxyPort: number): typeof fetch {
  const server = new RegExp(`//(?:127\\.0\\.0\\.1|localhost):${new URL(serverUrl).port}`);
  const via = `//127.0.0.1:${proxyPort}`;
  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return fetch(url.includes("/.well-known/") ? url : url.replace(server, via), init);
  };
}

interface Followed {
  readonly events: StreamResponse[];
  readonly resumes: number;
}

/**
 * A stream followed to its end through cuts: each time it breaks (an error, or an end without a
 * terminal or input-required event), it is opened again from the last number received.
 */
async function follow(
  open: (cursor: number | undefined) => AsyncIterable<StreamResponse>,
  cursor?: number,
): Promise<Followed> {
  const events: StreamResponse[] = [];
  let last = cursor;
  for (let resumes = 0; resumes < 200; resumes++) {
    try {
      for await (const e of open(last)) {
        events.push(e);
        last = eventNumberOf(e) ?? last;
        if (endsStream(e)) return { events, resumes };
      }
    } catch {
      // Cut: resume below.
    }
  }
  throw new Error(`gave up after 200 resumes: ${describeStream(events).join(", ")}`);
}

/** Repeats a blocking send (the same message) until it answers with a finished task. */
async function blockingUntilDone(
  client: Client,
  message: Message,
): Promise<{ task: Task; resumes: number }> {
  for (let resumes = 0; resumes < 200; resumes++) {
    try {
      const result = await client.sendMessage(sendRequest(message));
      if ("status" in result && result.status?.state === TaskState.TASK_STATE_COMPLETED) {
        return { task: result, resumes };
      }
    } catch {
      // Cut: the same messageId again.
    }
  }
  throw new Error("a blocking send never answered");
}

/** The text a client assembles from the answer's appends, and the numbers it received. */
function received(events: readonly StreamResponse[]) {
  let assembled = "";
  for (const e of events) {
    if (e.payload?.$case !== "artifactUpdate" || e.payload.value.lastChunk) continue;
    const content = e.payload.value.artifact?.parts[0]?.content;
    const chunk = content?.$case === "text" ? content.value : "";
    assembled = e.payload.value.append ? assembled + chunk : chunk;
  }
  return { assembled, numbers: events.flatMap((e) => eventNumberOf(e) ?? []) };
}

const taskText = (task: Task) =>
  task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("");

describe("streams cut mid-answer (real runtime, TCP proxy)", () => {
  it(`${CUTS} cuts across blocking, streaming and subscribe: every client ends with the exact text, nothing lost or twice`, async () => {
    const h = await a2a({
      config: { streaming: { flushMs: 0 } },
      rules: [
        {
          name: "answer",
          match: { lastUserText: /Round \d+/, toolResult: false },
          reply: reply(text(ANSWER), { chunkSize: 12 }),
        },
      ],
    });
    const port = Number(new URL(h.server.url).port);
    const cutting = perTest(
      await startCuttingProxy({
        target: port,
        cuts: CUTS,
        probability: 1,
        maxBytes: 5_000,
        random: seeded(33),
      }),
    );
    const viaProxy = await h.connect({ fetchImpl: throughProxy(h.server.url, cutting.port) });
    const direct = h.client;
    const modes = ["blocking", "streaming", "subscribe"] as const;
    const tally = {
      rounds: 0,
      resumes: 0,
      lost: 0,
      duplicated: 0,
      byMode: { blocking: 0, streaming: 0, subscribe: 0 },
    };
    let round = 0;

    // Three conversations at once, each one task at a time, until every cut has been made.
    const worker = async (contextId: string) => {
      while (cutting.cut() < CUTS && round < Number(process.env.ROUNDS ?? 400)) {
        const mode = modes[round % modes.length] ?? "streaming";
        const message = userMessage(`Round ${++round}`, { contextId });
        tally.rounds++;
        tally.byMode[mode]++;
        if (mode === "blocking") {
          const { task, resumes } = await blockingUntilDone(viaProxy, message);
          tally.resumes += resumes;
          expect(taskText(task)).toBe(ANSWER);
          continue;
        }
        const followed =
          mode === "streaming"
            ? await follow((cursor) =>
                viaProxy.sendMessageStream(
                  sendRequest(message),
                  cursor === undefined
                    ? {}
                    : { serviceParameters: { "Last-Event-ID": String(cursor) } },
                ),
              )
            : await (async () => {
                const started = await direct.sendMessage({
                  ...sendRequest(message),
                  configuration: {
                    returnImmediately: true,
                    acceptedOutputModes: [],
                    taskPushNotificationConfig: undefined,
                    historyLength: undefined,
                  },
                });
                const id = "id" in started ? started.id : "";
                return follow(
                  (cursor) =>
                    viaProxy.resubscribeTask(
                      { tenant: "", id },
                      { serviceParameters: { "Last-Event-ID": String(cursor ?? 0) } },
                    ),
                  0,
                );
              })();
        tally.resumes += followed.resumes;
        const { assembled, numbers } = received(followed.events);
        const expected = Array.from({ length: Math.max(...numbers) }, (_, i) => i + 1);
        tally.duplicated += numbers.length - new Set(numbers).size;
        tally.lost += expected.filter((n) => !numbers.includes(n)).length;
        expect(assembled).toBe(ANSWER);
        expect(describeStream(followed.events).at(-1)).toBe("status:completed");
      }
    };
    await Promise.all([worker("ctx-a"), worker("ctx-b"), worker("ctx-c")]);

    // Nothing ran twice: each round is one task, however often its send was repeated.
    for (const contextId of ["ctx-a", "ctx-b", "ctx-c"]) {
      const listed = await direct.listTasks({ ...listRequest(contextId), pageSize: 100 });
      expect(listed.tasks.every((t) => t.status?.state === TaskState.TASK_STATE_COMPLETED)).toBe(
        true,
      );
      (tally as Record<string, unknown>)[contextId] = listed.totalSize;
    }
    const tasks = ["ctx-a", "ctx-b", "ctx-c"].reduce(
      (sum, c) => sum + Number((tally as Record<string, unknown>)[c]),
      0,
    );
    console.log(`reliability: ${JSON.stringify({ cuts: cutting.cut(), ...tally })}`);
    expect(tasks).toBe(tally.rounds);
    expect(cutting.cut()).toBe(CUTS);
    expect(tally.lost).toBe(0);
    expect(tally.duplicated).toBe(0);
  }, 300_000);
});

describe("a client gone during a permission prompt", () => {
  it("comes back with its cursor, sees the prompt and answers it", async () => {
    const h = await a2a();
    const outside = join(h.bench.sandbox.root, "outside", "report.txt");
    await mkdir(join(h.bench.sandbox.root, "outside"));
    h.bench.model.setRules([
      writes("Save the report", outside, "report\n", "write-outside"),
      afterTool(/created successfully/, "Saved.", "written"),
    ]);
    // The client reads the first event, then goes away (its connection closed).
    const gone = new AbortController();
    const seen: StreamResponse[] = [];
    try {
      for await (const e of h.client.sendMessageStream(
        sendRequest(userMessage("Save the report")),
        {
          signal: gone.signal,
        },
      )) {
        seen.push(e);
        gone.abort();
      }
    } catch {
      // Aborted.
    }
    const first = seen[0]?.payload;
    const taskId = first?.$case === "task" ? first.value.id : "";
    const contextId = first?.$case === "task" ? first.value.contextId : "";
    const cursor = eventNumberOf(seen[0] as StreamResponse);
    expect(cursor).toBe(1);
    // Back with its cursor: what it missed, up to the prompt.
    const back = await follow(
      (c) =>
        h.client.resubscribeTask(
          { tenant: "", id: taskId },
          { serviceParameters: { "Last-Event-ID": String(c) } },
        ),
      cursor,
    );
    expect(received(back.events).numbers[0]).toBe(2);
    expect(lastStatus(back.events)).toMatchObject({
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      kind: "permission_request",
    });
    const answered = await follow(() =>
      h.client.sendMessageStream(sendRequest(userMessage("yes", { taskId, contextId }))),
    );
    expect(describeStream(answered.events).at(-1)).toBe("status:completed");
    expect(await readFile(outside, "utf8")).toBe("report\n");
  }, 120_000);
});
