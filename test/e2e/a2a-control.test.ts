/**
 * The control extension against the REAL Claude Code runtime, through the official A2A client
 * with the extension's `A2A-Extensions` header: steering a working task (docs/control.md).
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StreamResponse } from "@a2a-js/sdk";
import { TEXT } from "../../src/contract/texts.js";
import {
  a2a,
  asks,
  describeStream,
  idsOf,
  lastStatus,
  listRequest,
  messageText,
  reply,
  resultText,
  runtimeProcesses,
  text,
  tokenEntries,
  watchMessage,
} from "../support/harness/index.js";
import {
  bodyHas,
  isToolUse,
  releaseBash,
  slowBashRules,
  startBuild,
  steer,
  STEER,
  STEERED_ANSWER,
  untilQueued,
  withControl,
} from "../support/harness/control.js";

const isSteered = (e: StreamResponse) =>
  e.payload?.$case === "statusUpdate" &&
  e.payload.value.status?.message?.metadata?.kind === "steered";

/** Our server with Bash allowed and the slow build scripted, its command running. */
async function building(fetchImpl?: typeof fetch) {
  const h = await a2a({
    ...(fetchImpl && { fetchImpl }),
    config: { claude: { allowedTools: ["Bash"] } },
    rules: slowBashRules(),
  });
  return { h, ...(await startBuild(h)) };
}

describe("control extension: steering (real runtime)", () => {
  it("a steering message during a slow Bash is folded into the same turn of the same task", async () => {
    const { h, stream, ids } = await building(withControl);

    const steering = h.watch(STEER, ids);
    const head = await steering.first(() => true);
    expect(head.payload?.$case === "task" && head.payload.value.id).toBe(ids.taskId);
    // The runtime has the message once it says it queued it; the command then ends.
    await untilQueued(h);
    await releaseBash(h);

    const shape = describeStream(await stream.done);
    expect(shape).toContain("status:working:steered");
    expect(shape.at(-1)).toBe("status:completed");
    expect(resultText(stream.items)).toBe(STEERED_ANSWER);
    // The scripted model's request after the tool result carried the steering message.
    const afterTool = h.bench.model.requests.find((r) => r.request.toolResults.length > 0);
    expect(JSON.stringify(afterTool?.request.body)).toContain(STEER);
    // The steering request's stream is the same task's, to its end.
    expect(describeStream(await steering.done).at(-1)).toBe("status:completed");

    const stored = await h.client.getTask({ tenant: "", id: ids.taskId, historyLength: undefined });
    expect(stored.history.map((m) => messageText(m))).toContain(STEER);
    const tasks = await h.client.listTasks(listRequest(ids.contextId));
    expect(tasks.tasks.map((t) => t.id)).toEqual([ids.taskId]);
    expect(h.bench.model.unmatched).toEqual([]);
  });

  it('"now" interrupts the slow command and the turn goes on with the message', async () => {
    const { h, stream, ids } = await building(withControl);
    await steer(h.client, ids, STEER, { steer: "now" });

    // No release: only the interrupt ends the command.
    const shape = describeStream(await stream.done);
    expect(shape).toContain("status:working:steered");
    expect(shape.at(-1)).toBe("status:completed");
    expect(resultText(stream.items)).toBe(STEERED_ANSWER);
    await expect(access(join(h.bench.sandbox.cwd, "finished"))).rejects.toThrow();
    await releaseBash(h);
  });

  it("without the extension header the message is refused exactly as before", async () => {
    const { h, stream, ids } = await building();
    await expect(steer(h.client, ids)).rejects.toThrow(
      `Task ${ids.taskId} is still working; wait for input-required or send a new message without taskId.`,
    );
    await releaseBash(h);
    expect(describeStream(await stream.done).at(-1)).toBe("status:completed");
    expect(resultText(stream.items)).toBe("Built it.");
    expect(h.bench.model.requests.some((r) => bodyHas(STEER)(r.request))).toBe(false);
  });

  it("a steering message sent as the turn ends runs as the next turn of the same task", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      rules: [
        {
          name: "steered",
          match: { lastUserText: STEER },
          reply: reply(text("Changelog updated too.")),
        },
        {
          name: "essay",
          match: { lastUserText: "Write the notes" },
          // The last reply of the turn, streamed slowly: there is no tool boundary left to fold at.
          reply: reply(text("These are the release notes, written one piece at a time."), {
            chunkSize: 4,
            chunkDelayMs: 40,
          }),
        },
      ],
    });
    const stream = h.watch("Write the notes");
    await stream.first((e) => e.payload?.$case === "artifactUpdate");
    const ids = idsOf(stream.items);
    await steer(h.client, ids);

    const shape = describeStream(await stream.done);
    expect(shape.filter((s) => s === "status:working:steered")).toHaveLength(1);
    expect(shape.at(-1)).toBe("status:completed");
    expect(resultText(stream.items)).toBe("Changelog updated too.");
    expect(h.bench.model.requests.map((r) => r.rule)).toEqual(["essay", "steered"]);
    expect(stream.items.some(isSteered)).toBe(true);
  });
});

describe("control extension: the other states (real runtime)", () => {
  it("a steering message Claude never took when the run fails: the failed status names it", async () => {
    const { h, stream, ids } = await building(withControl);
    await steer(h.client, ids);
    await untilQueued(h);
    // The conversation's Claude Code process dies under the running turn: the run fails.
    const [claude] = await runtimeProcesses(h.bench.sandbox.configDir);
    process.kill(claude?.pid ?? 0, "SIGKILL");
    await releaseBash(h);

    const shape = describeStream(await stream.done);
    expect(shape.at(-1)).toBe("status:failed");
    expect(shape).not.toContain("status:working:steered");
    const failed = lastStatus(stream.items)?.text ?? "";
    expect(failed).toContain(TEXT.steeringNotTaken([STEER]));
    expect(h.bench.model.requests.some((r) => bodyHas(STEER)(r.request))).toBe(false);
  });

  it("with the header, a parked task takes the message as its answer and a finished one refuses it", async () => {
    const h = await a2a({
      fetchImpl: withControl,
      rules: asks("Paint the fence", { answer: /blue/, then: "Painting it blue.", name: "blue" }),
    });
    const first = h.watch("Paint the fence");
    const parked = await first.done;
    expect(lastStatus(parked).kind).toBe("ask_user_question");
    const ids = idsOf(parked);
    const answer = h.watch("blue", ids);
    const shape = describeStream(await answer.done);
    expect(shape).toContain("status:working:resumed");
    expect(shape).not.toContain("status:working:steered");
    expect(resultText(answer.items)).toBe("Painting it blue.");
    expect(shape.at(-1)).toBe("status:completed");
    await expect(steer(h.client, ids)).rejects.toThrow(/terminal state/);
  });
});

describe("control extension: who may steer (real runtime)", () => {
  it("only the task's owner steers it; another caller cannot see it; an operator may", async () => {
    const TOKEN = {
      alice: "alice-token-0123456789",
      bob: "bob-token-0123456789",
      ops: "ops-token-0123456789",
    };
    const h = await a2a({
      config: {
        server: {
          auth: { tokens: tokenEntries(TOKEN) },
          operators: ["ops"],
        },
        claude: { allowedTools: ["Bash"] },
      },
      rules: slowBashRules(),
    });
    // Each caller's JSON-RPC client, with its token and the control extension's header.
    const [alice, bob, ops] = await Promise.all(
      [TOKEN.alice, TOKEN.bob, TOKEN.ops].map((token) =>
        h.connect({ transport: "JSONRPC", token, fetchImpl: withControl }),
      ),
    );
    if (!alice || !bob || !ops) throw new Error("no client");
    const stream = watchMessage(alice, "Build the release");
    await stream.first(isToolUse);
    const ids = idsOf(stream.items);

    await expect(steer(bob, ids, "Stop building.")).rejects.toThrow(/not found/i);
    await steer(ops, ids);
    await untilQueued(h);
    await releaseBash(h);

    await stream.done;
    const steered = stream.items.find(isSteered);
    const message =
      steered?.payload?.$case === "statusUpdate"
        ? steered.payload.value.status?.message
        : undefined;
    expect(messageText(message)).toBe(STEER);
    expect(message?.metadata?.answeredBy).toBe("ops");
    expect(resultText(stream.items)).toBe(STEERED_ANSWER);
    expect(h.bench.model.requests.some((r) => bodyHas("Stop building.")(r.request))).toBe(false);
  });
});
