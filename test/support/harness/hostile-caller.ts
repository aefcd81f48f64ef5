/**
 * The hostile caller of test/e2e/hostile-*.test.ts: a scripted model that makes one tool call per
 * prompt, and a caller who answers every prompt of its own tasks with yes.
 */
import { createServer } from "node:http";
import { TaskState, type Part, type StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { dataPart, idsOf, lastStatus } from "../a2a/stream-view.js";
import { streamMessage } from "./messages.js";
import { perTest } from "./scope.js";
import type { A2AHarness } from "./in-process.js";
import { reply, text, toolUse, type ParsedRequest, type Rule } from "./model.js";

/** What follows `<VERB>: ` in the last user text. */
export const toolArg = (req: ParsedRequest, verb: string): string =>
  new RegExp(`${verb}: ([\\s\\S]*)$`).exec(req.lastUserText)?.[1]?.trim() ?? "";

/**
 * One tool call per prompt: `RUN:` Bash, `BACKGROUND:` Bash in the background, `READ:` Read,
 * `WRITE: <path>` Write, `FETCH:` WebFetch; then the tool's result, as Claude's answer.
 */
export const hostileRules: readonly Rule[] = [
  {
    name: "after",
    match: { toolResult: true },
    reply: (req) => reply(text(`Done: ${req.toolResults[0]?.content.slice(0, 2000) ?? ""}`)),
  },
  {
    name: "run",
    match: { lastUserText: /RUN: / },
    reply: (req) => reply(toolUse("Bash", { command: toolArg(req, "RUN"), description: "Run it" })),
  },
  {
    name: "background",
    match: { lastUserText: /BACKGROUND: / },
    reply: (req) =>
      reply(
        toolUse("Bash", {
          command: toolArg(req, "BACKGROUND"),
          description: "In the background",
          run_in_background: true,
        }),
      ),
  },
  {
    name: "read",
    match: { lastUserText: /READ: / },
    reply: (req) => reply(toolUse("Read", { file_path: toolArg(req, "READ") })),
  },
  {
    name: "write",
    match: { lastUserText: /WRITE: / },
    reply: (req) =>
      reply(
        toolUse("Write", { file_path: toolArg(req, "WRITE"), content: "written by the agent\n" }),
      ),
  },
  {
    name: "fetch",
    match: { lastUserText: /FETCH: / },
    reply: (req) => reply(toolUse("WebFetch", { url: toolArg(req, "FETCH"), prompt: "Summarise" })),
  },
];

/** Sends `prompt` on `client`, answering every prompt of its task with yes (at most five). */
export async function sayingYes(
  client: Client,
  prompt: string,
  ids: { contextId?: string } = {},
): Promise<{ events: StreamResponse[]; prompted: boolean }> {
  let events = await streamMessage(client, prompt, ids);
  const all = [...events];
  let prompted = false;
  for (let i = 0; i < 5 && lastStatus(events).state === TaskState.TASK_STATE_INPUT_REQUIRED; i++) {
    prompted = true;
    const yes: Part[] = [dataPart({ kind: "permission_response", decision: "allow" })];
    events = await streamMessage(client, yes, idsOf(all));
    all.push(...events);
  }
  return { events: all, prompted };
}

/** A loopback HTTP listener that counts what reaches it. */
export async function startListener(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const listener = createServer((_req, res) => {
    hits++;
    res.end("hello from the listener");
  });
  perTest({ close: () => new Promise<void>((done) => listener.close(() => done())) });
  await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
  const address = listener.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, hits: () => hits };
}

/** A task's whole stream, every prompt of it answered yes (`sayingYes`). */
export const attempt = async (
  client: Client,
  prompt: string,
  ids: { contextId?: string } = {},
): Promise<StreamResponse[]> => (await sayingYes(client, prompt, ids)).events;

/** What the runtime gave the model as tool results since its request number `from`, joined. */
export const resultsSince = (h: Pick<A2AHarness, "bench">, from: number): string =>
  h.bench.model.requests
    .slice(from)
    .flatMap((r) => r.request.toolResults.map((t) => t.content))
    .join("\n");
