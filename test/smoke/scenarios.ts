/**
 * docs/testing.md's smoke scenarios, written against the A2A client only, so they run against ANY
 * running claude-a2a server: with a real Claude (`npm run smoke`, A2A_URL) or in CI against our
 * server, the real Claude Code runtime and the scripted model (`test/smoke/rules.ts`). Prompts are
 * phrased so that a real model does what the scenario needs.
 */
import { access, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TaskState, type Part } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import {
  collect,
  describeStream,
  messageText,
  sendRequest,
  textPart,
  userMessage,
} from "../support/a2a/harness.js";
import { dataPart, headTask as head, lastStatus, resultText } from "../support/a2a/stream-view.js";
import { watch } from "../support/a2a/watch.js";

export interface SmokeContext {
  readonly client: Client;
  /** A directory outside the server's cwd (SMOKE_DIR), for the permission scenario. */
  readonly smokeDir: string;
}

export const PROMPTS = {
  v1: "Reply with exactly the word PONG and nothing else.",
  cancel: "Count slowly from 1 to 300, one number per line, with no other text.",
  overlap: "Count from 1 to 40, one number per line, with no other text.",
  input:
    "Use the AskUserQuestion tool to ask me which colour I prefer, with exactly two options: red and blue. After I answer, reply with only the colour I chose.",
  /** Followed by a path and ` containing exactly: smoke`. */
  permission: "Use the Write tool to create the file",
} as const;

export const OVERLAP_FOLLOW_UP = "Stop counting and say hello instead.";

const stream = (client: Client, parts: Part[] | string, ids = {}) =>
  client.sendMessageStream(sendRequest(userMessage(parts, ids)));

export async function smokeV1({ client }: SmokeContext): Promise<void> {
  const events = await collect(stream(client, PROMPTS.v1));
  expect(describeStream(events).at(-1)).toBe("status:completed");
  expect(resultText(events)).toMatch(/PONG/);
}

export async function smokeCancel({ client }: SmokeContext): Promise<void> {
  const run = watch(stream(client, PROMPTS.cancel));
  const task = await run.first((e) => e.payload?.$case === "task");
  await run.first((e) => e.payload?.$case === "artifactUpdate");
  const id = task.payload?.$case === "task" ? task.payload.value.id : "";
  const canceled = await client.cancelTask({ tenant: "", id, metadata: undefined });
  expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  const shape = describeStream(await run.done);
  expect(shape.at(-1)).toBe("status:canceled");
  expect(shape.filter((s) => s.startsWith("status:canceled"))).toHaveLength(1);
}

export async function smokeOverlap({ client }: SmokeContext): Promise<void> {
  const run = watch(stream(client, PROMPTS.overlap));
  const first = await run.first((e) => e.payload?.$case === "task");
  await run.first((e) => e.payload?.$case === "artifactUpdate");
  const task = first.payload?.$case === "task" ? first.payload.value : undefined;
  const ids = { taskId: task?.id ?? "", contextId: task?.contextId ?? "" };
  await expect(
    client.sendMessage(sendRequest(userMessage(OVERLAP_FOLLOW_UP, ids))),
  ).rejects.toThrow(
    `Task ${ids.taskId} is still working; wait for input-required or send a new message without taskId.`,
  );
  const events = await run.done;
  expect(describeStream(events).at(-1)).toBe("status:completed");
  expect(resultText(events)).toMatch(/40/);
  const stored = await client.getTask({ tenant: "", id: ids.taskId, historyLength: undefined });
  expect(stored.history.some((m) => messageText(m) === OVERLAP_FOLLOW_UP)).toBe(false);
}

export async function smokeInput({ client }: SmokeContext): Promise<void> {
  const first = await collect(stream(client, PROMPTS.input));
  const asked = lastStatus(first);
  expect(asked.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(asked.kind).toBe("ask_user_question");
  const questions = asked.data?.questions as { question: string; options?: { label: string }[] }[];
  const question = questions[0];
  expect(asked.text.split("\n")[0]).toBe(question?.question);
  const blue = question?.options?.find((o) => /blue/i.test(o.label))?.label ?? "blue";

  const task = head(first);
  const ids = { taskId: task.id, contextId: task.contextId };
  const answer = dataPart({ answers: { [question?.question ?? ""]: blue } });
  const second = await collect(stream(client, [answer], ids));
  const snapshot = head(second);
  expect(snapshot.id).toBe(task.id);
  expect(snapshot.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(describeStream(second)[1]).toBe("status:working:resumed");
  expect(describeStream(second).at(-1)).toBe("status:completed");
  expect(resultText(second)).toMatch(/blue/i);
}

export async function smokePermission({ client, smokeDir }: SmokeContext): Promise<void> {
  const dir = await mkdtemp(join(smokeDir, "claude-a2a-smoke-"));
  const denied = join(dir, "denied.txt");
  const allowed = join(dir, "allowed.txt");
  const ask = (path: string) => `${PROMPTS.permission} ${path} containing exactly: smoke`;

  // A structured deny beats a contradicting "yes", and the loop stops.
  const first = await collect(stream(client, ask(denied)));
  const prompt = lastStatus(first);
  expect(prompt.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(prompt.kind).toBe("permission_request");
  expect(prompt.data?.toolName).toBe("Write");
  const task = head(first);
  const ids = { taskId: task.id, contextId: task.contextId };
  const deny = dataPart({ kind: "permission_response", decision: "deny", reason: "smoke test" });
  const second = await collect(stream(client, [textPart("yes"), deny], ids));
  const end = lastStatus(second);
  // A real model gives up (completed); one that asks again is stopped by loop protection.
  if (end.state === TaskState.TASK_STATE_FAILED) {
    expect(end.text).toBe("Stopped: Claude requested the same denied permission again (Write).");
  } else {
    expect(end.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }
  expect(describeStream(second)).not.toContain("status:input-required:permission_request");
  await expect(access(denied)).rejects.toThrow();

  // "oui, vas-y" allows, and the tool runs.
  const third = await collect(stream(client, ask(allowed)));
  expect(lastStatus(third).kind).toBe("permission_request");
  const fourth = await collect(
    stream(client, "oui, vas-y", { taskId: head(third).id, contextId: head(third).contextId }),
  );
  expect(describeStream(fourth).at(-1)).toBe("status:completed");
  expect((await readFile(allowed, "utf8")).trim()).toBe("smoke");
}

/** SMOKE_DIR, or the system temp dir: outside the server's cwd either way. */
export const defaultSmokeDir = () => process.env.SMOKE_DIR ?? tmpdir();

/** docs/testing.md's smoke list as vitest tests, for whichever server `ctx()` points at. */
export function defineSmokeTests(ctx: () => SmokeContext): void {
  it("smoke:v1 — a plain single-turn task", () => smokeV1(ctx()));
  it("smoke:cancel — CancelTask on a running task", () => smokeCancel(ctx()));
  it("smoke:input — AskUserQuestion bridged to input-required, and the resume", () =>
    smokeInput(ctx()));
  it("smoke:overlap — a follow-up to a working task is refused; the running turn is untouched", () =>
    smokeOverlap(ctx()));
  it("smoke:permission — a structured deny beats a contradicting yes; oui, vas-y allows", () =>
    smokePermission(ctx()));
}
