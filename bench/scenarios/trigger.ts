/**
 * Trigger (issue 51, docs/triggers.md): how long a signed webhook delivery takes to become a
 * task's first event and first answer chunk, against a plain SendStreamingMessage's, on one server
 * with a GitHub webhook trigger. Each is a new task in a new conversation (a trigger's default),
 * rounds interleaved. The delivery's clock starts when the POST is sent; its "first event" is the
 * 202 that names the task (the task exists and is queued), its first chunk the first answer text a
 * SubscribeToTask from event 0 (Last-Event-ID) reads, subscribed as soon as the 202 is in. The
 * client is an operator (a trigger's task is its caller's), with a token on both kinds alike.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { Plan } from "../plan.js";
import { TURN_PROMPT, type Rig } from "../rig.js";
import type { Row } from "../stats.js";
import { sendRequest, userMessage } from "../../test/support/a2a/harness.js";
import { a2aClient } from "../../test/support/harness/clients.js";
import { tokenEntries } from "../../test/support/harness/tokens.js";

const SECRET_ENV = "BENCH_TRIGGER_SECRET";

interface Timing {
  readonly firstEventMs: number;
  readonly firstChunkMs: number;
}

const isChunk = (e: StreamResponse): boolean =>
  e.payload?.$case === "artifactUpdate" && !e.payload.value.lastChunk;

/** A new task by SendStreamingMessage, read to its end. */
async function plainTurn(client: Client): Promise<Timing> {
  const start = performance.now();
  let firstEventMs = Number.NaN;
  let firstChunkMs = Number.NaN;
  for await (const e of client.sendMessageStream(sendRequest(userMessage(TURN_PROMPT)))) {
    const at = performance.now() - start;
    if (Number.isNaN(firstEventMs)) firstEventMs = at;
    if (Number.isNaN(firstChunkMs) && isChunk(e)) firstChunkMs = at;
  }
  return { firstEventMs, firstChunkMs };
}

/** A new task by a signed GitHub `issues` delivery, its events read from the first to the end. */
async function hookTurn(url: string, client: Client, secret: string): Promise<Timing> {
  const body = JSON.stringify({ action: "opened", issue: { number: 1, title: "bench" } });
  const signature = createHmac("sha256", secret).update(body).digest("hex");
  const start = performance.now();
  const res = await fetch(`${url}/hooks/bench`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${signature}`,
    },
    body,
  });
  const answer = (await res.json()) as { taskId?: string };
  const firstEventMs = performance.now() - start;
  if (res.status !== 202 || answer.taskId === undefined) {
    throw new Error(`the delivery was answered ${res.status}: ${JSON.stringify(answer)}`);
  }
  let firstChunkMs = Number.NaN;
  const events = client.resubscribeTask(
    { tenant: "", id: answer.taskId },
    { serviceParameters: { "Last-Event-ID": "0" } },
  );
  for await (const e of events) {
    if (Number.isNaN(firstChunkMs) && isChunk(e)) firstChunkMs = performance.now() - start;
  }
  return { firstEventMs, firstChunkMs };
}

export async function trigger(rig: Rig, plan: Plan, log: (s: string) => void): Promise<Row[]> {
  const secret = randomBytes(16).toString("hex");
  const token = randomBytes(16).toString("hex");
  const s = await rig.extraServer(
    {
      server: { auth: { tokens: tokenEntries({ ops: token }) }, operators: ["ops"] },
      triggers: {
        bench: {
          kind: "webhook",
          verify: "github",
          secretEnv: SECRET_ENV,
          // The scripted model answers TURN_PROMPT as it does a warm turn's.
          prompt: `${TURN_PROMPT} {{issue.title}}`,
          allowUnsandboxed: true,
        },
      },
    },
    undefined,
    undefined,
    { env: { [SECRET_ENV]: secret } },
  );
  const plain: Timing[] = [];
  const hook: Timing[] = [];
  try {
    const client = await a2aClient(s.server.url, { token });
    // Warm-up: the server's first task of each kind (modules, the first process spawn).
    await plainTurn(client);
    await hookTurn(s.server.url, client, secret);
    for (let round = 0; round < plan.triggerRounds; round++) {
      // Alternate which goes first, so neither always follows the other's process's exit.
      const order = round % 2 === 0 ? ["plain", "hook"] : ["hook", "plain"];
      for (const kind of order) {
        if (kind === "plain") plain.push(await plainTurn(client));
        else hook.push(await hookTurn(s.server.url, client, secret));
      }
    }
    log(`bench: trigger: ${plan.triggerRounds} rounds of (SendStreamingMessage, webhook)`);
  } finally {
    await s.close();
  }
  const scenario = "trigger";
  return [
    {
      scenario,
      group: "new task, to its first event",
      variant: "SendStreamingMessage (first stream event)",
      unit: "ms",
      samples: plain.map((t) => t.firstEventMs),
      baseline: true,
    },
    {
      scenario,
      group: "new task, to its first event",
      variant: "webhook delivery (its 202, naming the task)",
      unit: "ms",
      samples: hook.map((t) => t.firstEventMs),
    },
    {
      scenario,
      group: "new task, to its first answer chunk",
      variant: "SendStreamingMessage",
      unit: "ms",
      samples: plain.map((t) => t.firstChunkMs),
      baseline: true,
    },
    {
      scenario,
      group: "new task, to its first answer chunk",
      variant: "webhook delivery, then SubscribeToTask from event 0",
      unit: "ms",
      samples: hook.map((t) => t.firstChunkMs),
    },
  ];
}
