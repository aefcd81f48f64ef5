/**
 * An operator forks another caller's task (docs/control.md "Fork", docs/security.md#operators):
 * against the REAL Claude Code runtime and the scripted model, through the official client with
 * the control extension's header, the fork is a new conversation of the operator's own that
 * knows the owner's task. A caller without the role cannot, and an operator cannot rewind
 * another caller's conversation (that would be new work in it).
 */
import { describe, expect, it } from "vitest";
import { TaskState } from "@a2a-js/sdk";
import {
  a2a,
  a2aClient,
  messageText,
  reply,
  sendForTask,
  text,
  tokenEntries,
  userMessage,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";

const TOKEN = {
  alice: "alice-token-0123456789",
  bob: "bob-token-0123456789",
  ops: "ops-token-0123456789",
};

const control = (metadata: Record<string, unknown>, prompt: string, contextId: string) => ({
  ...userMessage(prompt, { contextId }),
  metadata,
});

describe("an operator forks another caller's task (real runtime)", () => {
  it("the operator's fork knows the owner's task, in a context of its own; another caller's fork and an operator's rewind are refused", async () => {
    const h = await a2a({
      config: {
        server: {
          auth: { tokens: tokenEntries(TOKEN) },
          operators: ["ops"],
        },
      },
      rules: [{ name: "any", match: {}, reply: reply(text("Noted.")) }],
    });
    const [alice, bob, ops] = await Promise.all(
      [TOKEN.alice, TOKEN.bob, TOKEN.ops].map((token) =>
        a2aClient(h.server.url, { token, fetchImpl: withControl }),
      ),
    );
    if (!alice || !bob || !ops) throw new Error("no client");
    const source = await sendForTask(
      alice,
      userMessage("Remember the word alpha.", { contextId: "a" }),
    );
    expect(source.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const fork = await sendForTask(ops, control({ forkOf: source.id }, "Which word?", "o"));
    expect(fork.status?.state, messageText(fork.status?.message)).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect(fork.metadata?.control).toMatchObject({ forkOf: source.id });
    const forked = h.bench.model.requests.at(-1)?.request;
    expect(forked?.lastUserText).toContain("Which word?");
    expect(JSON.stringify(forked?.body)).toContain("Remember the word alpha.");
    // The fork is the operator's: its owner is ops, and alice does not see it.
    const seen = await ops.getTask({ tenant: "", id: fork.id, historyLength: 0 });
    expect(seen.metadata?.owner).toBe("token:ops");
    await expect(alice.getTask({ tenant: "", id: fork.id, historyLength: 0 })).rejects.toThrow(
      /not found/i,
    );

    // Bob has no role: alice's task is unknown to him.
    const requests = h.bench.model.requests.length;
    await expect(
      sendForTask(bob, control({ forkOf: source.id }, "Which word?", "b")),
    ).rejects.toThrow(`Task ${source.id} is not one of your tasks.`);
    // A rewind is new work in alice's conversation: not even an operator's.
    await expect(sendForTask(ops, control({ rewindTo: source.id }, "Again.", "a"))).rejects.toThrow(
      `Task ${source.id} is not one of your tasks.`,
    );
    expect(h.bench.model.requests.length).toBe(requests);
    expect(h.bench.model.unmatched).toEqual([]);
  });
});
