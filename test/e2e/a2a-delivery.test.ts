/**
 * Deliveries (docs/delivery.md) against the REAL Claude Code runtime with a scripted model, real
 * git and real check commands, through the official A2A client with the control extension: a
 * red check goes back to Claude as a new turn of the same task, the checks run again, and a
 * green delivery ends with its proof of work; still red after the last fix round, the task fails.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskState, type Message, type StreamResponse } from "@a2a-js/sdk";
import type { ConfigInput } from "../../src/config/schema.js";
import type { CheckRun, ProofOfWork } from "../../src/contract/delivery.js";
import {
  a2a,
  lastStatus,
  terminal,
  reply,
  sendRequest,
  text,
  toolUse,
  userMessage,
  watch,
  type ParsedRequest,
} from "../support/harness/index.js";
import { withControl } from "../support/harness/control.js";
import { git, initRepository, workingDir } from "../support/harness/git.js";

const PRESENT = {
  name: "present",
  command: "test -f fixed.txt || { echo 'fixed.txt is missing'; exit 1; }",
  timeoutSeconds: 120,
};
const NEVER = {
  name: "never",
  command: 'echo "key:${ANTHROPIC_API_KEY:-none}"; echo never green; exit 2',
  timeoutSeconds: 120,
};

const configWith = (checks = [PRESENT, NEVER], isolation: "worktree" | "shared" = "worktree") =>
  ({
    claude: {
      isolation,
      delivery: { checks, allowedTargets: ["branch"], maxRounds: 3 },
    },
  }) satisfies ConfigInput;
const CONFIG = configWith();

const rules = [
  {
    name: "fix: write the missing file",
    match: { lastUserText: /fixed\.txt is missing/, toolResult: false },
    reply: (req: ParsedRequest) =>
      reply(toolUse("Write", { file_path: join(workingDir(req), "fixed.txt"), content: "ok\n" })),
  },
  { name: "fixed", match: { toolResult: /fixed\.txt/ }, reply: reply(text("Wrote fixed.txt.")) },
  {
    name: "fix: cannot",
    match: { lastUserText: /never green/, toolResult: false },
    reply: reply(text("I cannot make that one pass.")),
  },
  { name: "first turn", match: { lastUserText: /Do the work/ }, reply: reply(text("Done.")) },
];

const deliverMessage = (deliver: unknown): Message => ({
  ...userMessage("Do the work"),
  metadata: { deliver },
});

const deliveryRuns = (events: readonly StreamResponse[]) =>
  events.flatMap((e) => {
    const message =
      e.payload?.$case === "statusUpdate" ? e.payload.value.status?.message : undefined;
    return message?.metadata?.kind === "delivery" ? [message.metadata as unknown as CheckRun] : [];
  });

const proofOf = (events: readonly StreamResponse[]) => {
  const artifact = events.flatMap((e) =>
    e.payload?.$case === "artifactUpdate" &&
    e.payload.value.artifact?.artifactId === "proof-of-work"
      ? [e.payload.value.artifact]
      : [],
  )[0];
  const data = artifact?.parts[0]?.content;
  const markdown = artifact?.parts[1]?.content;
  return {
    proof: data?.$case === "data" ? (data.value as unknown as ProofOfWork) : undefined,
    markdown: markdown?.$case === "text" ? markdown.value : "",
  };
};

const start = () =>
  a2a({ fetchImpl: withControl, config: CONFIG, rules, beforeStart: (cwd) => initRepository(cwd) });

describe("delivery: checks until green (real runtime, real git)", () => {
  it("a red check goes back to Claude, the fix turn makes it green: two rounds, in the stream and the proof of work", async () => {
    const h = await start();
    const events = await watch(
      h.client.sendMessageStream(sendRequest(deliverMessage({ checks: ["present"] }))),
    ).done;
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const runs = deliveryRuns(events);
    expect(runs.map((r) => [r.round, r.check, r.result, r.exitCode])).toEqual([
      [1, "present", "failed", 1],
      [2, "present", "passed", 0],
    ]);
    expect(runs[0]?.outputTail).toBe("fixed.txt is missing");

    // The fix turn carried the command, its exit code and its output, in the same conversation.
    const fix = h.bench.model.requests.find((r) => r.rule === "fix: write the missing file");
    expect(fix?.request.lastUserText).toContain("test -f fixed.txt");
    expect(fix?.request.lastUserText).toContain("failed with exit code 1");
    expect(fix?.request.lastUserText).toContain("fixed.txt is missing");
    expect(JSON.stringify(fix?.request.body)).toContain("Do the work");
    expect(h.bench.model.unmatched).toEqual([]);

    const { proof, markdown } = proofOf(events);
    expect(proof?.target).toBe("branch");
    expect(proof?.rounds).toBe(2);
    expect(proof?.files).toEqual([{ path: "fixed.txt", change: "added" }]);
    expect(proof?.checks.map((c) => [c.round, c.result])).toEqual([
      [1, "failed"],
      [2, "passed"],
    ]);
    expect(proof?.review).toEqual([]);
    // The head is the task's commit on the conversation's branch, its parent the base.
    const repo = h.bench.sandbox.cwd;
    expect(git(repo, "rev-parse", proof?.branch ?? "").trim()).toBe(proof?.headCommit);
    expect(git(repo, "rev-parse", `${proof?.headCommit}^`).trim()).toBe(proof?.baseCommit);
    expect(markdown).toContain("### Round 1: present, failed");
    expect(markdown).toContain("### Round 2: present, passed");

    const stored = await h.client.getTask({
      tenant: "",
      id: idOf(events),
      historyLength: undefined,
    });
    expect(stored.artifacts.map((a) => a.artifactId)).toContain("proof-of-work");
    expect(stored.metadata?.delivery).toMatchObject({ target: "branch", rounds: 2 });
  }, 120_000);

  it("still red after the last fix round: the task fails with the last failing output, no proof of work", async () => {
    const h = await start();
    const events = await watch(
      h.client.sendMessageStream(sendRequest(deliverMessage({ checks: ["never"], maxRounds: 1 }))),
    ).done;
    const end = lastStatus(events);
    expect(end.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(end.text).toMatch(/^Delivery failed: the checks are still red after 2 round\(s\)\./);
    expect(end.text).toContain("never green");

    const runs = deliveryRuns(events);
    expect(runs.map((r) => [r.round, r.result, r.exitCode])).toEqual([
      [1, "failed", 2],
      [2, "failed", 2],
    ]);
    // The check ran with the environment Claude's Bash gets, without the model's key.
    expect(runs[0]?.outputTail).toContain("key:none");
    // One fix round, as asked; nothing more.
    expect(h.bench.model.requests.filter((r) => r.rule === "fix: cannot")).toHaveLength(1);
    expect(proofOf(events).proof).toBeUndefined();
  }, 120_000);

  it("refuses what it cannot deliver before any task exists", async () => {
    const h = await start();
    const send = (deliver: unknown) => h.client.sendMessage(sendRequest(deliverMessage(deliver)));
    await expect(
      send({ checks: [{ name: "x", command: "curl http://example.com" }] }),
    ).rejects.toThrow("a caller never supplies a command");
    await expect(send({ command: "rm -rf ." })).rejects.toThrow(
      'metadata.deliver has no key "command"',
    );
    await expect(send("ship-it")).rejects.toThrow('Unknown delivery target "ship-it"');
    await expect(send("merge")).rejects.toThrow("Delivery target merge is not allowed");
    await expect(send("push")).rejects.toThrow("Delivery target push is not allowed");
    await expect(send({ checks: ["deploy"] })).rejects.toThrow('Unknown check "deploy"');

    const listed = await h.client.listTasks({
      tenant: "",
      contextId: "",
      status: 0,
      pageSize: 100,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    expect(listed.tasks).toEqual([]);
    expect(h.bench.model.requests).toEqual([]);
  }, 120_000);

  it("refuses a delivery without the control extension, and without worktree isolation", async () => {
    const plain = await a2a({ config: CONFIG, rules, beforeStart: (cwd) => initRepository(cwd) });
    await expect(plain.client.sendMessage(sendRequest(deliverMessage(true)))).rejects.toThrow(
      "metadata.deliver needs the control extension",
    );
    const shared = await a2a({
      fetchImpl: withControl,
      config: { claude: { ...CONFIG.claude, isolation: "shared" } },
      rules,
    });
    await expect(shared.client.sendMessage(sendRequest(deliverMessage(true)))).rejects.toThrow(
      'A delivery needs claude.isolation "worktree"',
    );
    expect(plain.bench.model.requests).toEqual([]);
    expect(shared.bench.model.requests).toEqual([]);
  }, 120_000);
});

describe("delivery: cancel", () => {
  it("canceling the task while a check runs kills the check, and the task ends canceled", async () => {
    const marks = await mkdtemp(join(tmpdir(), "delivery-cancel-"));
    const pidFile = join(marks, "pid");
    const slow = {
      name: "slow",
      command: `echo $$ > ${pidFile}; exec sleep 120`,
      timeoutSeconds: 300,
    };
    const h = await a2a({
      fetchImpl: withControl,
      config: configWith([slow]),
      rules,
      beforeStart: (cwd) => initRepository(cwd),
    });
    const stream = watch(h.client.sendMessageStream(sendRequest(deliverMessage(true))));
    const pid = Number(await until(() => readFile(pidFile, "utf8").catch(() => undefined)));
    expect(alive(pid)).toBe(true);
    const ids = idOf([await stream.first((e) => e.payload?.$case === "task")]);
    await h.client.cancelTask({ tenant: "", id: ids, metadata: undefined });
    expect(lastStatus(await stream.done).state).toBe(TaskState.TASK_STATE_CANCELED);
    await until(() => (alive(pid) ? undefined : true));
    await rm(marks, { recursive: true, force: true });
  }, 120_000);
});

/** Polls `get` until it gives a value (a bounded wait on an event outside the stream). */
async function until<T>(get: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await get();
    if (value !== undefined && value !== "") return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("gave up waiting");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("delivery: the terminal client", () => {
  it("send --deliver branch streams each check and prints the proof of work at the end", async () => {
    const h = await a2a({
      config: configWith([PRESENT]),
      rules,
      beforeStart: (cwd) => initRepository(cwd),
    });
    const cli = await terminal(h.server.url);
    const r = await cli.run(["send", "--deliver", "branch", "Do the work"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("• Delivery round 1: check present failed with exit code 1");
    expect(r.out).toContain("• Delivery round 2: check present passed");
    expect(r.out).toContain("# Proof of work");
    expect(r.out).toContain("- `fixed.txt` (added)");
    expect(r.out).toMatch(/\[completed\]/);
    await cli.close();
  }, 120_000);
});

function idOf(events: readonly StreamResponse[]): string {
  const first = events[0]?.payload;
  return first?.$case === "task" ? first.value.id : "";
}
